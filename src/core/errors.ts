/**
 * The base of every error platctl raises on purpose. `code` is stable and machine-readable;
 * `message` is for people and must never contain an API key, password or credential URL
 * (build messages with {@link redact} when they include anything user-supplied).
 */
export class PlatctlError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(redact(message), options);
    this.name = 'PlatctlError';
    this.code = code;
  }
}

/** The closed set of error codes. Per-resource failures are results, not throws. */
export type ErrorCode =
  | 'usage' // bad flags or arguments
  | 'config' // bad configuration file or environment
  | 'invalid-manifests' // validation failed; nothing was sent to the platform
  | 'api' // the platform answered with an error status
  | 'exists' // a create found the object already made by someone else: recorded as found
  | 'network' // the platform could not be reached
  | 'timeout' // a wait or request ran out of time
  | 'state' // the state store is unusable
  | 'locked' // another apply or controller holds the state lock
  | 'git' // cloning or fetching failed
  | 'control' // the controller's control API refused or could not be reached
  | 'aborted' // the run was interrupted
  | 'internal'; // a bug

const SECRET_PATTERNS: readonly RegExp[] = [
  // key=value and "key": "value" forms for anything that names a secret
  /((?:api[_-]?key(?:id)?|password|passwd|secret|token|authorization)["']?\s*[:=]\s*["']?)([^"'\s,}&]+)/gi,
  // credentials inside URLs: https://user:pass@host
  /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)([^@\s/]+)(@)/gi,
];

/** Masks secret-looking values in free text. Pure. */
export function redact(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (_m, head: string, _value: string, tail?: string) =>
      typeof tail === 'string' && tail === '@' ? `${head}***@` : `${head}***`,
    );
  }
  return out;
}

/** Removes every occurrence of the given literal secrets from text (for known values). Pure. */
export function scrub(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  return out;
}
