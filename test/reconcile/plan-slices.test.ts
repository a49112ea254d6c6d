import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { runSteps, Slicer } from '../../src/core/slices.js';
import type { ApiClient } from '../../src/model/api.js';
import { KINDS } from '../../src/model/manifest.js';
import type { ProviderRegistry } from '../../src/model/provider.js';
import { plan, planSteps } from '../../src/reconcile/planner.js';
import { reconcile } from '../../src/reconcile/run.js';
import { openStateStore } from '../../src/state/index.js';
import { loaded } from '../providers/fixtures.js';
import { m } from './manifests.js';

// A controller plans 100,000 resources on the event loop that also renews its lease: a plan that
// held the loop for 15 s let the lease lapse. The run gives the loop turns inside its plan.

const desired = Array.from({ length: 300 }, (_, i) => m.workspace('p', `ws-${i}`));

/** Every kind observed empty and planned by `planOne` (no I/O). */
function providers(planOne: () => []): ProviderRegistry {
  const one = (kind: string) => ({
    kind,
    observe: async () => [],
    plan: planOne,
    execute: async () => ({}),
  });
  return Object.fromEntries(KINDS.map((k) => [k, one(k)])) as unknown as ProviderRegistry;
}

/** A clock whose every reading is `step` ms after the previous one: long work takes time. */
function busyClock(step: number): Clock {
  let t = 1_700_000_000_000;
  return { now: () => (t += step), sleep: async () => {} };
}

async function run(clock: Clock, planOne: () => []) {
  const state = openStateStore(':memory:');
  try {
    return await reconcile(
      { paths: ['set'], mode: 'plan' },
      {
        load: async () => ({ manifests: desired.map(loaded), diagnostics: [] }),
        api: { dialect: 'spec' } as unknown as ApiClient,
        providers: providers(planOne),
        state,
        clock,
        resolveSecret: async () => 'x',
        projectId: async (p) => `id-${p}`,
      },
    );
  } finally {
    await state.close();
  }
}

describe('a long plan gives the event loop turns', () => {
  it('timers and I/O run between the pairings of one plan, not only after it', async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const seen: number[] = [];
    const result = await run(busyClock(1), () => {
      seen.push(turns);
      return [];
    });
    counting = false;
    expect(result.status).toBe('planned');
    expect(seen).toHaveLength(desired.length);
    // the loop turned while the plan was being made: many readings of the counter, in order
    expect(new Set(seen).size).toBeGreaterThan(5);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('the plan is the same whether the loop is given turns or not', async () => {
    const still: Clock = { now: () => 1_700_000_000_000, sleep: async () => {} };
    const sliced = await run(busyClock(7), () => []);
    const whole = await run(still, () => []);
    expect(sliced.plan).toEqual(whole.plan);
    expect(sliced.plan?.actions).toHaveLength(desired.length);
  });
});

describe('Slicer', () => {
  it('gives a turn once a slice has lasted sliceMs, and runs steps to the same result', async () => {
    let t = 0;
    let turns = 0;
    const slicer = new Slicer({
      now: () => t,
      sliceMs: 10,
      turn: async () => {
        turns++;
      },
    });
    function* count(): Generator<void, number, undefined> {
      let n = 0;
      for (let i = 0; i < 100; i++) {
        t += 1;
        n += i;
        yield;
      }
      return n;
    }
    expect(await slicer.run(count())).toBe(4950);
    expect(turns).toBe(10);
    expect(runSteps(count())).toBe(4950);
    // a clock stepped backwards starts a new slice instead of never ending this one
    t = -1000;
    expect(slicer.pause()).toBeDefined();
  });

  it('planSteps yields between pairings and returns plan()', () => {
    const options = { providers: providers(() => []) as never };
    const steps = planSteps(desired, [], new Map(), options);
    let pauses = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) pauses++;
    expect(pauses).toBeGreaterThan(desired.length);
    expect(r.value).toEqual(plan(desired, [], new Map(), options));
  });

  it('planSteps pauses while pairing a large set, before the first pairing is planned', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => m.workspace('p', `ws-${i}`));
    let planned = 0;
    const options = {
      providers: providers(() => {
        planned++;
        return [];
      }) as never,
    };
    const steps = planSteps(many, [], new Map(), options);
    let before = 0;
    for (let r = steps.next(); !r.done && planned === 0; r = steps.next()) before++;
    // pairing 5,000 is not one stretch: several pauses before the first provider's plan
    expect(before).toBeGreaterThan(5);
  });
});
