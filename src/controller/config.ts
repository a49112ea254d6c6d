import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import type { DialectName } from '../core/dialect.js';
import type { Logger } from '../core/logger.js';
import type { PriceFile } from '../model/prices.js';
import type { LoadPort } from '../reconcile/run.js';
import { isPostgresUrl } from '../state/index.js';
import type { ReconcileRun } from './engine/ports.js';
import type { ShardBy } from './leadership/shards/wire.js';
import type { StepOptions } from './loop/ports.js';
import type { NotificationConfig } from './notify/config.js';
import type { SecretInput } from './secrets/live-secrets.js';
import type { SourceConfig } from './sources/source-factory.js';

/** Everything a controller needs; the CLI builds it from flags, tests directly. */
export interface ControllerConfig extends StepOptions {
  readonly source: SourceConfig;
  readonly cacheDir: string;
  readonly statePath: string;
  /** `host:port` of the HTTP server (`127.0.0.1:0` picks a free port). */
  readonly listen: string;
  /** The webhook's shared secret (a function: asked per delivery, for rotation). */
  readonly webhookSecret?: SecretInput;
  /** Bearer token of the control API and the dashboard's data; undefined disables them (404). */
  readonly controlToken?: SecretInput;
  /** The dashboard's built page. @default dist/dashboard of the package */
  readonly dashboardDir?: string;
  /** `--prices`: the dashboard prices usage and counts GPUs with it. */
  readonly prices?: PriceFile;
  readonly api: {
    readonly baseUrl: string;
    /** A literal, or a function asked before each request (a key file that may be rotated). */
    readonly apiKey: SecretInput;
    /** The platform's dialect (docs/dialects.md). @default 'spec' */
    readonly dialect?: DialectName;
    readonly rps?: number;
    readonly concurrency?: number;
  };
  readonly maxDeletes?: number;
  /**
   * The files holding the controller's own credentials (key, webhook secret, control token, git
   * credentials, the notifications' files): a manifest's `passwordFrom.file` may not read them.
   */
  readonly credentialFiles?: readonly string[];
  /** Where alerts go (`--notifications FILE`, validated); undefined sends none. */
  readonly notifications?: NotificationConfig;
  /** The state lease's lifetime without renewal; a standby takes over this long after a crash. @default 15000 */
  readonly leaseTtlMs?: number;
  readonly backoff?: { readonly baseMs: number; readonly maxMs: number };
  readonly wait?: { readonly pollMs: number; readonly timeoutMs: number };
  /**
   * After SIGTERM, how long waits and requests in flight may go on before they are cut (the run
   * recorded `interrupted`); below the pod's termination grace period. Undefined: never cut.
   */
  readonly shutdownTimeoutMs?: number;
  /** `/healthz` fails when the loop makes no progress for this long. @default 300000 */
  readonly livenessThresholdMs?: number;
  /**
   * `project`: replicas on one PostgreSQL state split the projects between them (see
   * docs/architecture.md); undefined: one replica leads, the others stand by.
   */
  readonly shardBy?: ShardBy;
  /** Holder label in the lease (`controller:<host>:<pid>:<uuid>`). */
  readonly holderLabel?: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Replaces the engine run (tests of the wiring only). */
  readonly run?: ReconcileRun;
  /** The manifests stage (tests count its calls). @default the controller's loader, refusing its credentials */
  readonly load?: LoadPort;
  /**
   * `${VAR}` values for every revision's manifests (`--var`, `--var-file`; files are read at
   * each revision's load, absolute paths). They win over `PLATCTL_VAR_<NAME>`.
   */
  readonly variables?: {
    readonly vars?: Readonly<Record<string, string>>;
    readonly varFiles?: readonly string[];
  };
}

/** The default cache directory next to the state store. */
export function defaultCacheDir(statePath: string): string {
  const local = statePath === ':memory:' || isPostgresUrl(statePath);
  return join(local ? '.platctl' : join(statePath, '..'), 'controller-cache');
}

/** The API's rate and concurrency limits that are set, for the clients that share them. Pure. */
export function apiLimits(api: ControllerConfig['api']): { rps?: number; concurrency?: number } {
  return {
    ...(api.rps !== undefined ? { rps: api.rps } : {}),
    ...(api.concurrency !== undefined ? { concurrency: api.concurrency } : {}),
  };
}
