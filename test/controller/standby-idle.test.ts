import { afterEach, describe, expect, it } from 'vitest';
import type { LeasePort } from '../../src/controller/leadership/lease-port.js';
import { stateStoreLease } from '../../src/controller/leadership/state-lease.js';
import { ControllerLoop } from '../../src/controller/loop/loop.js';
import { openState, processHolder, type StateStore } from '../../src/state/index.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import {
  baseOptions,
  FakeSource,
  loopPorts,
  nextStep,
  recordingRun,
  stopLoopsAfterEach,
} from './helpers/fakes.js';
import { ManualClock, settle } from './helpers/manual-clock.js';

// A standby is idle whatever asks it to run: one lease poll per poll interval, never more. The
// clock is a manual one, so a standby that obeys it makes no pass at all unless the test moves it.

/** `lease` with its attempts counted. */
function counted(lease: LeasePort): LeasePort & { attempts: number } {
  const out = {
    attempts: 0,
    tryAcquire: () => {
      out.attempts++;
      return lease.tryAcquire();
    },
    holder: () => lease.holder(),
    release: () => lease.release(),
  };
  return out;
}

const track = stopLoopsAfterEach();

function loopOn(lease: LeasePort, clock: ManualClock) {
  const { ports, lines, status } = loopPorts(new FakeSource(), recordingRun().run, lease);
  const loop = new ControllerLoop(
    { ...baseOptions, leasePollMs: 1000 },
    { ...ports, clock, heartbeat: undefined },
  );
  track(loop);
  return { loop, lines, status };
}

describe.skipIf(!postgresUrl)('a standby on PostgreSQL stays idle after triggers', () => {
  let schema: TestSchema;
  const stores: StateStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await schema?.drop();
  });

  it('makes no lease poll of its own when triggered, only when its poll interval passes', async () => {
    schema = await testSchema('standby_idle');
    const open = async () => {
      const s = await openState(schema.url);
      stores.push(s);
      return s;
    };
    const clock = new ManualClock();
    const a = loopOn(stateStoreLease(await open(), processHolder('a'), { ttlMs: 3000 }), clock);
    const first = nextStep(a.loop);
    void a.loop.start();
    await first;
    const lease = counted(stateStoreLease(await open(), processHolder('b'), { ttlMs: 3000 }));
    const b = loopOn(lease, clock);
    void b.loop.start();
    const deadline = Date.now() + 10_000;
    while (b.status.role !== 'standby' && Date.now() < deadline) await settle();
    expect(b.status.role).toBe('standby');
    const before = lease.attempts;
    // a webhook, a file change, a `ctl reconcile`: none of them is work for a standby
    for (let i = 0; i < 20; i++) b.loop.trigger('test', 'manual');
    for (let i = 0; i < 20; i++) {
      await settle();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(lease.attempts - before).toBeLessThanOrEqual(1);
    expect(b.status.role).toBe('standby');
    // its poll interval passing is: one poll
    await clock.advance(1000);
    for (let i = 0; i < 10; i++) await settle();
    expect(lease.attempts - before).toBeLessThanOrEqual(2);
    expect(lease.attempts - before).toBeGreaterThanOrEqual(1);
  });
});

describe('lease errors (the database down)', () => {
  it('are logged once, not per attempt, and retried ever later', async () => {
    let down = true;
    const lease = counted({
      tryAcquire: async () => {
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return true;
      },
      holder: async () => {
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return undefined;
      },
      release: async () => {},
    });
    const clock = new ManualClock();
    const { loop, lines } = loopOn(lease, clock);
    void loop.start();
    await settle();
    // 30 poll intervals of the database being down
    for (let i = 0; i < 30; i++) await clock.advance(1000);
    const errors = lines.filter((l) => l.includes('"event":"lease-error"'));
    expect(errors).toHaveLength(1);
    // backing off: far fewer attempts than one a poll interval, but still some
    expect(lease.attempts).toBeLessThan(15);
    expect(lease.attempts).toBeGreaterThan(3);
    // and one line when it answers again, then the replica leads
    down = false;
    const led = nextStep(loop);
    for (let i = 0; i < 20 && !lines.some((l) => l.includes('"event":"leader"')); i++) {
      await clock.advance(1000);
    }
    await led;
    expect(lines.filter((l) => l.includes('"event":"lease-recovered"'))).toHaveLength(1);
  });
});
