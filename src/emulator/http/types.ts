import type { Clock } from '../../core/clock.js';
import type { Dialect } from '../../core/dialect.js';
import type { EmulatorStore } from '../store/types.js';

/**
 * The contract between the emulator's HTTP layer and its domain handlers.
 *
 * The HTTP layer matches the request to an operation of the OpenAPI document (`api/`), checks the
 * auth header the operation accepts, validates path, query and body against the document, and
 * only then calls the handler registered under the operation's `operationId`. A handler therefore
 * receives typed-enough, already-valid input and returns a response or throws an {@link ApiError}.
 */
export interface EmuRequest {
  readonly operationId: string;
  readonly method: string;
  /** The path as received, without the query string. */
  readonly path: string;
  /** Path parameters, percent-decoded (`Power%20reset` arrives as `Power reset`). */
  readonly params: Readonly<Record<string, string>>;
  /** Query parameters, coerced to the types the OpenAPI document declares, defaults applied. */
  readonly query: Readonly<Record<string, unknown>>;
  /** The parsed JSON body (undefined when none was sent). */
  readonly body: unknown;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Who is calling: resolved from the API key before the handler runs. */
  readonly principal: Principal;
}

export interface Principal {
  readonly accountId: string;
  readonly username: string;
  readonly organizationId: string;
  /** Member of the `Organization Admins` group: may do everything in its organization. */
  readonly orgAdmin: boolean;
}

export interface EmuResponse {
  readonly status: number;
  /** Serialized as JSON unless it is a string (then sent as text/plain). `null` is sent as JSON null. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface EmuContext {
  readonly store: EmulatorStore;
  /** The emulator's clock (can be advanced through /_emulator/clock/advance). */
  readonly clock: Clock;
  readonly config: EmulatorConfig;
}

export type Handler = (req: EmuRequest, ctx: EmuContext) => EmuResponse | Promise<EmuResponse>;

/** Handlers keyed by OpenAPI operationId; each domain module exports one of these maps. */
export type HandlerMap = Readonly<Record<string, Handler>>;

export interface EmulatorConfig {
  readonly infraGroup: string;
  readonly paasGroup: string;
  readonly billingGroup: string;
  /** How this platform's API differs from the spec's (`core/dialect.ts`). */
  readonly dialect: Dialect;
  /** Seconds each asynchronous transition takes on the emulator's clock, by name. */
  readonly transitionSeconds: Readonly<Record<TransitionName, number>>;
}

export type TransitionName =
  | 'vpc-deploy'
  | 'compute-provision'
  | 'compute-delete'
  | 'cluster-provision'
  | 'cluster-delete';

/** Thrown by handlers; rendered as the error body described in docs/api-assumptions.md. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: readonly { field: string; message: string }[],
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type ApiErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'already_exists'
  | 'conflict'
  | 'not_allowed'
  | 'rate_limited'
  | 'internal';
