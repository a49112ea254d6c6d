import { MemoryStore } from './memory-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { EmulatorStore } from './types.js';

/** A SQLite store in `dataFile` when given (created if missing), else an in-memory store. */
export function openStore(dataFile?: string): EmulatorStore {
  return dataFile ? new SqliteStore(dataFile) : new MemoryStore();
}
