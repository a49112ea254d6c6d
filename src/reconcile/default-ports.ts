import { type Clock, systemClock } from '../core/clock.js';
import { credentialFilesIn } from '../core/credentials.js';
import type { Logger } from '../core/logger.js';
import { loadAndValidate } from '../manifests/index.js';
import {
  type ApiClientOptions,
  createApiClient,
  createProfileDirectory,
  createProjectDirectory,
  createProviderRegistry,
  manifestSecrets,
  PACER_GROUP_MS,
} from '../providers/index.js';
import { createUsageReader } from '../providers/usage-reader.js';
import { DEFAULT_STATE_PATH, openStateLazily } from '../state/index.js';
import type { StateStore } from '../state/types.js';
import type { EventSink } from './events.js';
import type { RunPorts } from './run-types.js';

/** How to reach the platform and where state lives; what the CLI and controller configure. */
export interface EngineConfig {
  readonly baseUrl: string;
  /** Never printed. */
  readonly apiKey: string;
  /** Requests per second, shared by every call. Unlimited when undefined. */
  readonly rps?: number;
  /** HTTP requests in flight at once. @default 8 */
  readonly httpConcurrency?: number;
  /** @default .platctl/state.db in the working directory */
  readonly statePath?: string;
  /** An open store to use instead of opening `statePath` (the caller closes it). */
  readonly state?: StateStore;
  readonly groups?: ApiClientOptions['groups'];
  /** A profile's replacements for the paths the spec does not show (`client/paths.ts`). */
  readonly paths?: ApiClientOptions['paths'];
  /** The platform's dialect (docs/dialects.md). @default 'spec' */
  readonly dialect?: ApiClientOptions['dialect'];
  readonly clock?: Clock;
  readonly events?: EventSink;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
  readonly hardSignal?: AbortSignal;
  readonly wait?: RunPorts['wait'];
  /**
   * Environment for `passwordFrom.env` and, through the `PLATCTL_VAR_` prefix only, `${VAR}`.
   * @default process.env
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Files holding platctl's own credentials (the key file, the config file): a manifest's
   * `passwordFrom.file` may not read them.
   */
  readonly credentialFiles?: readonly string[];
  readonly onRequest?: ApiClientOptions['onRequest'];
  /** Retry and timeout tuning of the API client (tests shorten the backoff). */
  readonly client?: Partial<
    Pick<ApiClientOptions, 'maxAttempts' | 'baseDelayMs' | 'maxDelayMs' | 'timeoutMs' | 'onRetry'>
  >;
}

/**
 * Builds the real ports of a run (opens the state store: I/O): the API client with its shared
 * limiter, the provider registry, the project directory, secrets, the manifest loader. Call
 * `close()` when done (it closes the client's connections and the store it opened).
 */
export function createRunPorts(config: EngineConfig): RunPorts & { close(): Promise<void> } {
  const clock = config.clock ?? systemClock;
  const api = createApiClient({
    ...config.client,
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    clock,
    ...(config.rps === undefined ? {} : { rps: config.rps }),
    ...(config.httpConcurrency === undefined ? {} : { concurrency: config.httpConcurrency }),
    ...(config.groups ? { groups: config.groups } : {}),
    ...(config.paths ? { paths: config.paths } : {}),
    ...(config.dialect ? { dialect: config.dialect } : {}),
    ...(config.onRequest ? { onRequest: config.onRequest } : {}),
  });
  const state = config.state ?? openStateLazily(config.statePath ?? DEFAULT_STATE_PATH, { clock });
  const env = config.env ?? process.env;
  return {
    load: (input) => loadAndValidate({ ...input, env: { ...env }, refusedValues: [config.apiKey] }),
    api,
    providers: createProviderRegistry(),
    state,
    clock,
    resolveSecret: manifestSecrets({
      env,
      refusedFiles: [...(config.credentialFiles ?? []), ...credentialFilesIn(env)],
      refusedValues: () => [config.apiKey],
    }),
    projectId: createProjectDirectory(api),
    profileNames: createProfileDirectory(api),
    usage: createUsageReader(api),
    ...(config.events ? { events: config.events } : {}),
    ...(config.logger ? { logger: config.logger } : {}),
    ...(config.signal ? { signal: config.signal } : {}),
    ...(config.hardSignal ? { hardSignal: config.hardSignal } : {}),
    ...(config.wait ? { wait: config.wait } : {}),
    // paced: the state commits no more often than the pacer wakes (a create's pending record waits
    // up to that long to be committed, while its request waits for its slot at the limiter)
    ...(config.rps === undefined ? {} : { commitGapMs: PACER_GROUP_MS }),
    close: async () => {
      api.close();
      if (!config.state) await state.close();
    },
  };
}
