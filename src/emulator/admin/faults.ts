import { randomUUID } from 'node:crypto';
import { RE2JS } from 're2js';

/** A fault to inject, as posted to `POST /_emulator/faults`. */
export interface FaultSpec {
  /**
   * A regular expression (`^/apis/.*`, RE2 syntax: no lookaround or backreferences) or a glob
   * (`/apis/*` — `*` within a segment, `**` across); at most {@link MAX_PATTERN_LENGTH} characters.
   */
  readonly path: string;
  readonly method?: string;
  readonly status?: number;
  /** Seconds, sent as `Retry-After` (a 429 gets `1` when unset). */
  readonly retryAfter?: number;
  readonly latencyMs?: number;
  readonly drop?: boolean;
  /** Probability 0..1 that a matching request is hit (default 1). */
  readonly rate?: number;
  /** How many requests to hit before the fault expires (default: unlimited). */
  readonly count?: number;
}

interface ActiveFault {
  readonly id: string;
  readonly spec: FaultSpec;
  readonly regex: RE2JS;
  remaining: number;
}

/** What a hit fault asks the server to do to one request. */
export interface FaultAction {
  readonly latencyMs: number;
  readonly drop: boolean;
  readonly status?: number;
  readonly retryAfter?: number;
}

/** The injected faults, applied to API requests before auth. In memory only (tests set them). */
export class FaultTable {
  #faults: ActiveFault[] = [];

  add(spec: FaultSpec): string {
    const id = randomUUID();
    this.#faults.push({ id, spec, regex: toRegex(spec.path), remaining: spec.count ?? Infinity });
    return id;
  }

  clear(): void {
    this.#faults = [];
  }

  /** The first matching fault that fires (consuming one of its count), or undefined. */
  hit(method: string, path: string, random: () => number = Math.random): FaultAction | undefined {
    for (const fault of this.#faults) {
      if (fault.remaining <= 0) continue;
      if (fault.spec.method && fault.spec.method.toUpperCase() !== method) continue;
      if (!fault.regex.matcher(path).find()) continue;
      if (random() >= (fault.spec.rate ?? 1)) continue;
      fault.remaining--;
      const { status, drop, latencyMs, retryAfter } = fault.spec;
      return {
        latencyMs: latencyMs ?? 0,
        drop: drop === true,
        ...(status !== undefined ? { status } : {}),
        ...(status === 429 || retryAfter !== undefined ? { retryAfter: retryAfter ?? 1 } : {}),
      };
    }
    this.#faults = this.#faults.filter((f) => f.remaining > 0);
    return undefined;
  }
}

/** Longer patterns are refused: compiling one costs time in proportion to its length. */
const MAX_PATTERN_LENGTH = 1000;

/**
 * Why `pattern` cannot be a fault's path (too long, or a regular expression RE2 does not
 * compile), if so.
 */
export function patternError(pattern: string): string | undefined {
  try {
    toRegex(pattern);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * A glob when it contains no regex-only characters and no leading `^`; a regex otherwise. Compiled
 * by RE2JS, whose matching is linear in the path's length whatever the pattern: on V8's
 * backtracking engine `^/(a+)+$` took 0.7 s for a 30-character path and doubled with each more
 * character, and one such request holds the emulator's only thread (docs/reliability.md).
 */
function toRegex(pattern: string): RE2JS {
  if (pattern.length > MAX_PATTERN_LENGTH)
    throw new Error(`longer than ${MAX_PATTERN_LENGTH} characters`);
  if (pattern.startsWith('^') || /[()[\]|\\+$]/.test(pattern)) return RE2JS.compile(pattern);
  const escaped = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return RE2JS.compile(`^${escaped}/?$`);
}
