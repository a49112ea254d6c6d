import { describe, expect, it } from 'vitest';
import { IntentBook, type IntentPort } from '../../src/controller/status/intent.js';
import type { StepMemory } from '../../src/controller/status/status.js';
import type { StoredJson } from '../../src/state/types.js';

/**
 * A store whose writes each wait until `release()` is called, newest first: two writes on two
 * pooled connections may commit in either order.
 */
function slowStore() {
  let stored: StoredJson | undefined;
  const pending: (() => void)[] = [];
  const port: IntentPort = {
    approvals: true,
    read: async () => stored,
    write: (doc) =>
      new Promise<void>((resolve) => {
        pending.push(() => {
          stored = doc;
          resolve();
        });
      }),
  };
  return {
    port,
    stored: () => stored,
    /** Lands the newest write still waiting; false when none waits. */
    release(): boolean {
      const next = pending.pop();
      next?.();
      return next !== undefined;
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 5));

describe('the intent book', () => {
  it("keeps a suspension made while a run's save is still being written", async () => {
    // fresh-clone CI: the first save after a run (no document yet: memory's, not suspended) was
    // in flight when `ctl suspend` wrote; it landed last and the fleet resumed
    const store = slowStore();
    const memory: StepMemory = {};
    const book = new IntentBook(store.port, memory);
    const saving = book.save();
    await settle();
    const suspending = book.set({ suspended: true });
    await settle();
    while (store.release()) await settle();
    await Promise.all([saving, suspending]);
    expect(store.stored()).toMatchObject({ suspended: true });
    expect(memory.suspended).toBe(true);
  });

  it('a refresh that was reading when a suspension was made does not undo it in memory', async () => {
    let stored: StoredJson | undefined = { version: 1, suspended: false };
    let releaseRead: (() => void) | undefined;
    const port: IntentPort = {
      approvals: true,
      read: async () => {
        const seen = stored;
        await new Promise<void>((r) => {
          releaseRead = r;
        });
        return seen;
      },
      write: async (doc) => {
        stored = doc;
      },
    };
    const memory: StepMemory = {};
    const book = new IntentBook(port, memory);
    const refreshing = book.refresh();
    await settle();
    const suspending = book.set({ suspended: true });
    await settle();
    releaseRead?.();
    await refreshing;
    await settle();
    releaseRead?.();
    await suspending;
    expect(stored).toMatchObject({ suspended: true });
    expect(memory.suspended).toBe(true);
  });
});
