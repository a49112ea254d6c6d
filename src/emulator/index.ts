import type { AddressInfo } from 'node:net';
import { DIALECTS, type DialectName, defaultDialect } from '../core/dialect.js';
import type { Logger } from '../core/logger.js';
import type { AdminDeps } from './admin/controls.js';
import { FaultTable } from './admin/faults.js';
import { isLoopbackName } from './admin/guard.js';
import { Journal } from './admin/journal.js';
import { EmulatorClock } from './clock.js';
import { failResource, handlersFor } from './handlers.js';
import type { PagingQuirks } from './http/paging-quirks.js';
import { createEmulatorServer } from './http/server.js';
import type { EmuContext, EmulatorConfig, HandlerMap, TransitionName } from './http/types.js';
import { checkHandlers } from './openapi/check-handlers.js';
import { compiledApi } from './openapi/compiled-api.js';
import { DEFAULT_GROUPS } from './openapi/load-document.js';
import { applySeed, grantAdminKey } from './seed/apply-seed.js';
import { loadSeed } from './seed/load-seed.js';
import { openStore } from './store/open-store.js';
import type { EmulatorStore } from './store/types.js';

/** Defaults of docs/api-assumptions.md, "Status values and transitions". */
export type { PagingQuirks } from './http/paging-quirks.js';

export const DEFAULT_TRANSITION_SECONDS: Readonly<Record<TransitionName, number>> = {
  'vpc-deploy': 30,
  'compute-provision': 300,
  'compute-delete': 60,
  'cluster-provision': 600,
  'cluster-delete': 120,
};

/**
 * Short lifecycles for local work (`platctl emulator --fast`, the demo): every wait a second or
 * two, so the examples apply in seconds instead of the realistic defaults' ten minutes.
 */
export const FAST_TRANSITION_SECONDS: Readonly<Record<TransitionName, number>> = {
  'vpc-deploy': 1,
  'compute-provision': 2,
  'compute-delete': 1,
  'cluster-provision': 2,
  'cluster-delete': 1,
};

export interface EmulatorOptions {
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default 0: an ephemeral port. */
  readonly port?: number;
  /** The key of the seeded organization admin. Only its SHA-256 is stored. */
  readonly apiKey: string;
  /** Mounts the `/_emulator/` test controls. */
  readonly admin?: boolean;
  /** Keep state in this SQLite file (default: in memory). */
  readonly dataFile?: string;
  /** YAML seed replacing the built-in one. */
  readonly seedFile?: string;
  /** Emulated seconds per real second (default 1). */
  readonly clockSpeed?: number;
  readonly transitionSeconds?: Partial<Record<TransitionName, number>>;
  readonly groups?: { infra?: string; paas?: string; billing?: string };
  /** The API dialect to speak (docs/dialects.md). @default $PLATCTL_DIALECT, else 'spec' */
  readonly dialect?: DialectName;
  readonly logger?: Logger;
  /**
   * Pages as a stricter real platform might: capped at `pageCap` items whatever `limit` asks,
   * `offset` ignored with `ignoreOffset`. Off by default.
   */
  readonly paging?: PagingQuirks;
  /** Replaces the handler map (tests of the framework only). */
  readonly handlers?: HandlerMap;
}

export interface RunningEmulator {
  /** `http://host:port` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly clock: EmulatorClock;
  readonly store: EmulatorStore;
  /** Stops listening, ends open connections and closes the store. */
  close(): Promise<void>;
}

/**
 * Starts the platform emulator: loads and merges the OpenAPI document, compiles its validators,
 * opens (and on first use seeds) the store, and listens. Rejects on a bad seed, document or port.
 */
export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  if (!options.apiKey) throw new TypeError('startEmulator: apiKey is required');
  const groups = { ...DEFAULT_GROUPS, ...stripUndefined(options.groups ?? {}) };
  const dialect = DIALECTS[options.dialect ?? defaultDialect()];
  const { doc, operations, router, validators } = compiledApi(groups, dialect);
  const handlers = options.handlers ?? handlersFor(new Set(operations.map((o) => o.operationId)));
  const problems = checkHandlers(operations, handlers);
  if (problems.length > 0)
    throw new Error(`emulator handlers and API disagree: ${problems.join('; ')}`);
  const seed = loadSeed(options.seedFile);
  const store = openStore(options.dataFile);
  const saved = store.get<{ offsetMs: number }>('meta', 'clock');
  const clock = new EmulatorClock({
    speed: options.clockSpeed ?? 1,
    offsetMs: saved?.offsetMs ?? 0,
  });
  const config: EmulatorConfig = {
    infraGroup: groups.infra,
    paasGroup: groups.paas,
    billingGroup: groups.billing,
    dialect,
    transitionSeconds: {
      ...DEFAULT_TRANSITION_SECONDS,
      ...stripUndefined(options.transitionSeconds ?? {}),
    },
  };
  const ctx: EmuContext = { store, clock, config };
  if (!store.get('meta', 'seed')) applySeed(store, seed, options.apiKey, clock.now());
  else grantAdminKey(store, seed, options.apiKey);
  const faults = new FaultTable();
  const journal = new Journal();
  const host = options.host ?? '127.0.0.1';
  // Persist how far emulated time is ahead of real time, so a restart (even after running at a
  // higher --clock-speed) resumes where it stopped instead of going back.
  const saveClock = () => store.put('meta', 'clock', { offsetMs: clock.now() - Date.now() });
  const admin: AdminDeps | undefined = options.admin
    ? {
        ctx,
        clock,
        faults,
        journal,
        guard: { loopbackOnly: isLoopbackName(host) },
        saveClock,
        fail: failResource,
        reset: () => {
          store.clear();
          clock.reset();
          faults.clear();
          journal.clear();
          applySeed(store, seed, options.apiKey, clock.now());
          saveClock();
        },
      }
    : undefined;
  const api = {
    ctx,
    doc,
    router,
    validators,
    handlers,
    faults,
    journal,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.paging ? { paging: options.paging } : {}),
  };
  const server = createEmulatorServer({ api, doc, ...(admin ? { admin } : {}) });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    clock,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          saveClock();
          store.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
