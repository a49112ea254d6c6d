// The API client's one port to the network: what a transport is asked and answers, and how it
// fails. Its real implementation on node:http(s) is http-transport.ts.

/** One exchange, as the API client asks for it. */
export interface TransportRequest {
  readonly method: string;
  /** The request target on the transport's host: path and query, already encoded (`/a/b?x=1`). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as UTF-8, with its length. */
  readonly body?: string;
  /** From the first byte sent to the last byte of the answer. */
  readonly timeoutMs: number;
  /** Aborting it ends the exchange at once. */
  readonly signal?: AbortSignal;
}

/** A whole answer: any status, a redirect included (a transport never follows one). */
export interface TransportResponse {
  readonly status: number;
  /** Names lower-cased; a repeated header's values joined by `, `. */
  readonly headers: Record<string, string>;
  /** The body as UTF-8 text; empty when there was none. */
  readonly text: string;
}

/**
 * Sends one request and reads the whole answer. Rejects with {@link AttemptTimeout} when
 * `timeoutMs` passed, with the signal's reason when it was aborted, and with a
 * {@link TransportError} when the exchange failed (refused, reset, TLS, an unreadable answer);
 * the connection is then closed, never reused.
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** No whole answer within the request's `timeoutMs`. */
export class AttemptTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'AttemptTimeout';
  }
}

/** The exchange failed before a whole answer came; `code` is Node's (`ECONNRESET`, ...). */
export class TransportError extends Error {
  readonly code: string;
  constructor(cause: unknown) {
    const code = (cause as { code?: unknown } | undefined)?.code;
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'TransportError';
    this.code = typeof code === 'string' ? code : 'network error';
  }
}
