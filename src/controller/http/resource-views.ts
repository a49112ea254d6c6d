import { gpusOf } from '../../model/prices.js';
import { sizeOf } from '../../reconcile/gpu-count.js';
import type { LiveView } from '../engine/ports.js';
import type { RunAction, StoredRun } from '../status/history.js';

/** Keys whose values are secrets: masked in every document the control API serves. */
const SECRET_KEY = /password|passwd|secret|token|api[-_]?key|private[-_]?key/i;
/** A reference to a secret (an environment variable's or a file's name), not the secret. */
const REFERENCE = /From$/;
const MASK = '********';

const secretKey = (k: string) => SECRET_KEY.test(k) && !REFERENCE.test(k);

/** `value` with every secret-named field's value masked, at any depth (pure, copies). */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, k, {
      value: secretKey(k) && v !== null && typeof v !== 'object' ? MASK : maskSecrets(v),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A live document as the control API serves it: secrets masked. */
export function liveDocument(live: LiveView): LiveView {
  return { ...live, body: maskSecrets(live.body) as LiveView['body'] };
}

const SECRET_LINE =
  /^(\s*(?:-\s+)?)(["']?)([\w.-]*?(?:password|passwd|secret|token|api[-_]?key|private[-_]?key)[\w.-]*)\2(\s*:[ \t]+)(\S.*)$/i;

/**
 * The YAML document of a file that starts at `line` (1-based), as written: up to the next `---`
 * or the end, trailing blank lines dropped, the values of secret-named scalar fields masked
 * (a literal password committed to git is still not served). Pure.
 */
export function documentAt(text: string, line: number): string {
  const lines = text.split(/\r?\n/);
  let start = Math.max(0, line - 1);
  while (start < lines.length && /^---\s*$/.test(lines[start] ?? '')) start++;
  let end = start;
  while (end < lines.length && !/^(---|\.\.\.)(\s|$)/.test(lines[end] ?? '')) end++;
  const doc = lines.slice(start, end);
  while (doc.length > 0 && (doc.at(-1) ?? '').trim() === '') doc.pop();
  // a block scalar under a secret-named key (`password: |`): its lines are the secret
  let blockIndent: number | undefined;
  return doc
    .map((l) => {
      const indent = l.length - l.trimStart().length;
      if (blockIndent !== undefined) {
        if (l.trim() === '' || indent > blockIndent)
          return l.trim() === '' ? l : `${l.slice(0, indent)}${MASK}`;
        blockIndent = undefined;
      }
      const m = SECRET_LINE.exec(l);
      if (!m || REFERENCE.test(m[3] ?? '')) return l;
      if (/^[|>]/.test(m[5] ?? '')) {
        blockIndent = indent;
        return l;
      }
      if ((m[5] ?? '').startsWith('*')) return l; // an alias: a name, no value
      // an anchor keeps its name (`&pw ********`), so aliases to it still read
      const anchor = /^&\S+\s*/.exec(m[5] ?? '')?.[0] ?? '';
      return `${m[1]}${m[2]}${m[3]}${m[2]}${m[4]}${anchor}${MASK}`;
    })
    .join('\n');
}

/** One entry of a resource's action history: equal actions of consecutive runs are one entry. */
export interface HistoryEntry extends Omit<RunAction, 'key'> {
  /** The newest run of the entry. */
  readonly runId: string;
  /** When the newest run of the entry started (ISO). */
  readonly at: string;
  /** How many consecutive runs did the same (a suspended drift is planned every interval). */
  readonly count: number;
  /** When the oldest run of the entry started, when `count` > 1. */
  readonly since?: string;
}

const same = (a: RunAction, b: RunAction) =>
  a.type === b.type &&
  a.reason === b.reason &&
  a.outcome === b.outcome &&
  a.error === b.error &&
  a.message === b.message;

/**
 * The actions of `key` in `runs` (newest first), newest first, with an action repeated by
 * consecutive runs (same type, reason, message, outcome and error) kept once with its count.
 * Pure.
 */
export function actionHistory(runs: readonly StoredRun[], key: string): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  let last: RunAction | undefined;
  for (const run of runs) {
    for (const action of run.actions) {
      if (action.key !== key) continue;
      const prev = out.at(-1);
      if (prev && last && same(last, action)) {
        out[out.length - 1] = { ...prev, count: prev.count + 1, since: run.startedAt };
      } else {
        const { key: _k, ...rest } = action;
        out.push({ runId: run.runId, ...rest, at: run.startedAt, count: 1 });
      }
      last = action;
    }
  }
  return out;
}

/** What a compute instance holds, from its spec (live, else desired). */
export interface ComputeView {
  readonly profile: string;
  /** Units of the profile: 1 for bare metal, the worker nodes of a Kubernetes instance. */
  readonly units: number;
  /** Its GPUs, where the profile's count is known. */
  readonly gpus?: number;
  /** `on` or `off`, as the platform last said. */
  readonly powerState?: 'on' | 'off';
}

/** The compute view of a resource, or undefined for a resource that is no compute. Pure. */
export function computeOf(
  kind: string,
  desired: unknown,
  live: LiveView | undefined,
): ComputeView | undefined {
  if (kind !== 'ComputeInstance') return undefined;
  const spec = (live?.body as { spec?: unknown } | undefined)?.spec ?? specOf(desired);
  const size = sizeOf(spec);
  if (!size)
    return live?.powerState ? { profile: '', units: 0, powerState: live.powerState } : undefined;
  const perUnit = gpusOf(size.profile);
  return {
    ...size,
    ...(perUnit !== undefined ? { gpus: perUnit * size.units } : {}),
    ...(live?.powerState ? { powerState: live.powerState } : {}),
  };
}

const specOf = (doc: unknown) => (doc as { spec?: unknown } | undefined)?.spec;
