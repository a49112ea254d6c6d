import type { ApiFamily, Dialect } from '../core/dialect.js';

/**
 * The API client's port: what a provider asks of the one HTTP client (src/providers/client/),
 * and what it answers. No I/O here; the client implements it.
 */

/** The name of an entry of the path table (the paths the spec does not show). */
export type PathName =
  | 'clusters'
  | 'cluster'
  | 'services'
  | 'service'
  | 'blueprintEnable'
  | 'blueprintDisable';

/** A complete path table: the defaults with a profile's entries laid over them. */
export type PathTable = Readonly<Record<PathName, string>>;

export type { ApiFamily } from '../core/dialect.js';

export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Absolute path on the platform, groups already substituted (see {@link ApiClient.groups}). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: unknown;
  /** The API family the call belongs to: the dialect names the header its key goes in. */
  readonly auth: ApiFamily;
  /** What is being done, for errors and metrics: "creating workspace ml/dev". */
  readonly operation: string;
  /** Statuses that are answers, not errors (e.g. 404 on a read). Others throw. */
  readonly accept?: readonly number[];
  /**
   * A write the spec makes idempotent (an update or publish by name, a delete, an assignment):
   * after a `500` it is sent again with backoff, like a read. @default false
   */
  readonly idempotent?: boolean;
  /**
   * Set on creates: before a retry after a dropped connection, a timeout or a `500`, call this to
   * learn whether an earlier attempt reached the server; true means do not send again.
   */
  readonly existsCheck?: () => Promise<boolean>;
  /**
   * Statuses that mean success when they answer a re-sent attempt after one that may have reached
   * the server (a publish answered 409 "already deploying" after a dropped connection).
   */
  readonly acceptOnRetry?: readonly number[];
  /** The path with ids replaced by placeholders, for metrics (`/auth/v1/users/{id}/`). */
  readonly route?: string;
  /** Values to remove from any error this request raises (a password sent in the body). */
  readonly secrets?: readonly string[];
  /** Aborts the request and any retry wait. */
  readonly signal?: AbortSignal;
  /**
   * Its place among the requests waiting for the rate limiter: a higher one is sent first. List
   * pages are 1 (`providers/support/list.ts`): a page's answer unblocks the next page and what
   * waits on the whole list, a single read or write unblocks only itself. @default 0
   */
  readonly priority?: number;
  /**
   * Asked right before each attempt is sent, once the rate limiter gave it its turn (no I/O):
   * false refuses it with `locked`, unsent (a controller that can no longer prove it leads).
   */
  readonly mayStart?: () => boolean;
  /**
   * Told of progress before an answer: each attempt as it starts and each retry wait as it
   * begins (the controller's watchdog). Not called for the final answer; must not throw.
   */
  readonly onProgress?: (event: RequestProgress) => void;
}

/** A step of a request still under way, as given to {@link ApiRequest.onProgress}. */
export type RequestProgress =
  | { readonly phase: 'attempt'; readonly attempt: number }
  | { readonly phase: 'backoff'; readonly attempt: number; readonly delayMs: number };

export interface ApiResponse<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * True when no answer was read but {@link ApiRequest.existsCheck} showed that an earlier attempt
   * of the create reached the server; `status` is then 200 and `body` null.
   */
  readonly recovered?: boolean;
}

/** The one client every request goes through: auth, rate limit, retries, error parsing. */
export interface ApiClient {
  readonly groups: { readonly infra: string; readonly paas: string; readonly billing: string };
  /** The paths the spec does not show, defaults overlaid by the profile (`client/paths.ts`). */
  readonly paths: PathTable;
  /** How this platform's API differs from the spec's (`core/dialect.ts`). */
  readonly dialect: Dialect;
  request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
}
