import { type Logger, pino } from 'pino';
import { printableJson } from './terminal-text.js';

export type { Logger };

/** Field names whose values pino replaces with `***` wherever they appear in a log line. */
const REDACT_PATHS = [
  'apiKey',
  '*.apiKey',
  'password',
  '*.password',
  '*.*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'headers["x-api-key"]',
  'headers["x-service-api-keyid"]',
  'headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers["x-service-api-keyid"]',
  '*.headers.authorization',
];

export interface LoggerOptions {
  /** `info` unless set; `silent` turns logging off. */
  readonly level?: string;
  /** Where JSON lines go; standard error unless set (standard output stays for command output). */
  readonly destination?: NodeJS.WritableStream;
  /** Fields added to every line (for example `{ component: 'controller' }`). */
  readonly base?: Record<string, unknown>;
}

/**
 * A structured JSON logger (one line per event) that never writes known secret fields. A line
 * read on a terminal (`kubectl logs`) obeys no control character: JSON escapes C0 already, and
 * the C1 and bidirectional controls JSON leaves raw are written as `\u` escapes too
 * ({@link printableJson}): a commit message or a platform error is logged as text.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const target = options.destination ?? process.stderr;
  const escaping = { write: (line: string) => target.write(printableJson(line)) };
  return pino(
    {
      level: options.level ?? 'info',
      base: options.base ?? null,
      redact: { paths: REDACT_PATHS, censor: '***' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    escaping,
  );
}
