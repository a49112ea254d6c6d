import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/core/clock.js';
import { openStateStore } from '../../src/state/index.js';
import type { StateStore } from '../../src/state/types.js';

/** One empty place to keep state; every store opened on it sees the same state. */
export interface StorePlace {
  open(options?: { clock?: Clock }): Promise<StateStore>;
  /** Closes what was opened here and removes the place. */
  dispose(): Promise<void>;
}

/** A state store implementation under the contract tests. */
export interface StoreFactory {
  readonly name: string;
  place(): Promise<StorePlace>;
}

/** SQLite: a file in a fresh temporary directory. */
export const sqliteFactory: StoreFactory = {
  name: 'sqlite',
  async place() {
    const dir = mkdtempSync(join(tmpdir(), 'platctl-state-'));
    const opened: StateStore[] = [];
    return {
      async open(options = {}) {
        const store = openStateStore(join(dir, 'state.db'), options);
        opened.push(store);
        return store;
      },
      async dispose() {
        for (const s of opened.splice(0)) await s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/**
 * Every store the contract tests run against. A new implementation joins by adding its factory
 * here; a method added to the port gets its contract test in test/state/.
 */
export const storeFactories: readonly StoreFactory[] = [sqliteFactory];

/** Opens places and disposes of them after each test. */
export function placesOf(factory: StoreFactory) {
  const places: StorePlace[] = [];
  return {
    async open(options?: { clock?: Clock }): Promise<StateStore> {
      const place = await factory.place();
      places.push(place);
      return place.open(options);
    },
    async place(): Promise<StorePlace> {
      const place = await factory.place();
      places.push(place);
      return place;
    },
    async disposeAll(): Promise<void> {
      for (const p of places.splice(0)) await p.dispose();
    },
  };
}
