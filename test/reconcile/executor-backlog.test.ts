import { describe, expect, it, vi } from 'vitest';
import { executePlan } from '../../src/reconcile/executor.js';
import { act, fakeClock, planOf } from './helpers.js';

/** The most tasks p-queue held at once, waiting and running (what each costs memory). */
const held = vi.hoisted(() => ({ max: 0 }));
vi.mock('p-queue', async (original) => {
  const { default: PQueue } = await original<typeof import('p-queue')>();
  class Counting extends PQueue {
    constructor(options?: { concurrency?: number }) {
      super(options);
      this.on('add', () => {
        held.max = Math.max(held.max, this.size + this.pending);
      });
    }
  }
  return { default: Counting };
});

// a first apply of 100,000 handed p-queue every ready create at once (87,000 tasks, each with
// its closures, promises and abort handler: ≈ 60 MB of a 256 MB heap); the queue is now topped
// up as actions end, and the actions start in the same order
describe('ready actions waiting for a place in the queue', () => {
  it('are handed to the queue a few at a time, and start in the order they became ready', async () => {
    held.max = 0;
    const actions = Array.from({ length: 1000 }, (_, i) =>
      act(`Workspace/p/w${String(i).padStart(4, '0')}#create`, [], 'create'),
    );
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const out = await executePlan(
      planOf(actions),
      {
        perform: async (a) => {
          started.push(a.id);
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, 0));
          running--;
          return {};
        },
        clock: fakeClock(),
      },
      { concurrency: 4 },
    );
    expect([...out.values()].every((o) => o.status === 'succeeded')).toBe(true);
    expect(started).toEqual(actions.map((a) => a.id));
    expect(most).toBe(4);
    expect(held.max).toBeLessThanOrEqual(8);
  });
});
