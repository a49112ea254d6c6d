import type { Writable } from 'node:stream';
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
  const escaping = {
    write: (line: string) => target.write(printableJson(line)),
    // pino's `logger.flush(cb)` calls this: see logTaken
    flush: (cb: (err?: Error) => void) => void taken(target).then(() => cb()),
  };
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

/**
 * Resolves once the logger's destination has taken the lines written so far, up to its
 * high-water mark (I/O: waits for the stream's `drain`, or its end); at once when nothing waits.
 * A caller writing many lines in one stretch awaits it between batches: standard error on a pipe
 * is asynchronous on Linux, and 100,000 lines written in one stretch waited in memory (≈ 30 MB at
 * 100,000 resources) until the stretch ended and the pipe's reader took them 64 KB at a time.
 */
export function logTaken(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

/** Resolves when `target` has no more lines over its high-water mark (or has ended). */
function taken(target: NodeJS.WritableStream): Promise<void> {
  const stream = target as Partial<Writable> & NodeJS.WritableStream;
  if (stream.writableNeedDrain !== true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const e of ENDS) stream.off(e, done);
      resolve();
    };
    for (const e of ENDS) stream.once(e, done);
  });
}

// not 'error': a listener there would keep a failing destination from being reported as before
const ENDS = ['drain', 'close', 'finish'] as const;
