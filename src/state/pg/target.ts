import { PlatctlError } from '../../core/errors.js';

/** A PostgreSQL state location, parsed from a `postgres://` URL. */
export interface PostgresTarget {
  /** The URL for the driver, with platctl's own parameters removed; may carry a password. */
  readonly connectionString: string;
  /** The schema holding platctl's tables. @default platctl */
  readonly schema: string;
  /** The URL for people and logs: no password, ever. */
  readonly display: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** True when `target` names a PostgreSQL database rather than a SQLite file. Pure. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

/** `url` with any password replaced by `***`. Pure; input that is not a URL is returned masked. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/(\/\/[^/@:]*:)[^@/]*@/, '$1***@');
  }
}

/**
 * Parses a `postgres://user@host:port/db?schema=name` URL (pure). `schema` (platctl's, default
 * `platctl`) is a lower-case SQL identifier; every other parameter (sslmode, ...) goes to the
 * driver. Errors show the URL without its password.
 */
export function parsePostgresTarget(url: string): PostgresTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PlatctlError('config', `the state URL is not a valid URL: ${redactUrl(url)}`);
  }
  if (!isPostgresUrl(url)) {
    throw new PlatctlError(
      'config',
      `the state URL must start with postgres://: ${redactUrl(url)}`,
    );
  }
  const schema = u.searchParams.get('schema') ?? 'platctl';
  if (!SCHEMA_NAME.test(schema)) {
    throw new PlatctlError(
      'config',
      `the state URL's schema must be a lower-case SQL name (letters, digits, _), got ${JSON.stringify(schema)}`,
    );
  }
  u.searchParams.delete('schema');
  return { connectionString: u.toString(), schema, display: redactUrl(url) };
}
