import { PlatctlError, scrub } from '../core/errors.js';

/**
 * The classified errors of the platform's API: what a provider throws and the engine branches on
 * (a conflict on create, a 404 on delete, a project the key cannot see). The client
 * (src/providers/client/) raises them; nothing here does I/O.
 */

/** The platform's error body (docs/api-assumptions.md, "Error body"). */
export interface PlatformErrorBody {
  readonly status?: number;
  readonly code?: string;
  readonly message?: string;
  readonly details?: readonly { readonly field?: string; readonly message?: string }[];
}

/** What kind of failure an API status is, for callers that branch on it. */
export type ApiErrorClass =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'server'
  | 'unavailable';

/** Classifies an HTTP status. Pure. */
function classifyStatus(status: number): ApiErrorClass {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate-limited';
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  if (status >= 500) return 'server';
  return 'invalid';
}

/**
 * The platform answered with an error status. The message reads
 * `409 creating workspace ml/dev: already exists` and never contains the API key.
 */
export class ApiError extends PlatctlError {
  /** HTTP status. */
  readonly status: number;
  /** The platform's own error code (`already_exists`, ...), when its body carried one. */
  readonly apiCode: string | undefined;
  /** What was being done ("creating workspace ml/dev"). */
  readonly operation: string;
  readonly errorClass: ApiErrorClass;
  readonly details: readonly { readonly field?: string; readonly message?: string }[];

  constructor(
    status: number,
    operation: string,
    body: PlatformErrorBody | undefined,
    secrets: readonly string[],
  ) {
    const what = body?.message ?? humanizeCode(body?.code) ?? `HTTP ${status}`;
    // a detail the message already says (`spec.x unknown y` and `spec.x: unknown y`) is said once
    const details = (body?.details ?? [])
      .filter(
        (d) => !(d.message && what.includes(d.message) && (!d.field || what.includes(d.field))),
      )
      .map((d) => [d.field, d.message].filter(Boolean).join(': '))
      .filter((d) => d.length > 0 && !what.includes(d));
    const text = `${status} ${operation}: ${what}${details.length ? ` (${details.join('; ')})` : ''}`;
    super('api', scrub(text, secrets));
    this.name = 'ApiError';
    this.status = status;
    this.apiCode = body?.code;
    this.operation = operation;
    this.errorClass = classifyStatus(status);
    this.details = body?.details ?? [];
  }
}

/** The platform could not be reached, or the connection dropped before an answer. */
export class NetworkError extends PlatctlError {
  readonly operation: string;
  constructor(operation: string, detail: string, cause?: unknown) {
    super('network', `${operation}: ${detail}`, { cause });
    this.name = 'NetworkError';
    this.operation = operation;
  }
}

/** A request got no answer within its timeout. */
export class RequestTimeoutError extends PlatctlError {
  readonly operation: string;
  constructor(operation: string, timeoutMs: number) {
    super('timeout', `${operation}: no answer within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
    this.operation = operation;
  }
}

function humanizeCode(code: string | undefined): string | undefined {
  return code ? code.replace(/_/g, ' ') : undefined;
}

/** A project name the platform does not know (or this key cannot see). */
export class UnknownProjectError extends PlatctlError {
  readonly project: string;
  constructor(project: string, visible: readonly string[]) {
    const known = [...visible].sort().join(', ') || 'none';
    super(
      'api',
      `project ${project} is unknown to the platform or not visible to this API key (visible: ${known})`,
    );
    this.name = 'UnknownProjectError';
    this.project = project;
  }
}
