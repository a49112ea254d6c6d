import { CONDITIONS, type Condition } from '../api/resources.js';
import type { Diagnostic } from '../api/status.js';

/** The colour of each condition (Mantine palette names). */
export const CONDITION_COLOR: Readonly<Record<Condition, string>> = {
  Ready: 'teal',
  Progressing: 'blue',
  Degraded: 'red',
  Drifted: 'orange',
  Suspended: 'gray',
  Orphaned: 'grape',
};

/** `a1b2c3d` for a commit SHA; other revision strings as they are. */
export function shortRevision(revision: string): string {
  return /^[0-9a-f]{40,64}$/.test(revision) ? revision.slice(0, 7) : revision;
}

/** `file:line:col` of a diagnostic, as far as it is known. */
export function diagnosticAt(d: Diagnostic): string {
  if (d.line === undefined) return d.file;
  return d.column === undefined ? `${d.file}:${d.line}` : `${d.file}:${d.line}:${d.column}`;
}

/** `850 ms`, `12.3 s`, `4 min 5 s`, `1 h 20 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** `3 s ago`, `5 min ago`, `2 h ago`, `4 d ago` from an ISO time and `now` (epoch ms). */
export function timeAgo(iso: string | undefined, now: number): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** `in 45 s`, `in 5 min`, `in 2 h`, `in 4 d` from an ISO time ahead and `now`; `now` once past. */
export function timeUntil(iso: string, now: number): string {
  const s = Math.round((Date.parse(iso) - now) / 1000);
  if (Number.isNaN(s)) return iso;
  if (s <= 0) return 'now';
  if (s < 60) return `in ${s} s`;
  if (s < 3600) return `in ${Math.floor(s / 60)} min`;
  if (s < 86_400) return `in ${Math.floor(s / 3600)} h`;
  return `in ${Math.floor(s / 86_400)} d`;
}

/** A field value of a diff, shown compactly (`—` when absent). */
export function showValue(value: unknown): string {
  if (value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The condition a URL names (`?condition=Drifted`); undefined for none or an unknown one. */
export function conditionOf(value: string | null | undefined): Condition | undefined {
  return CONDITIONS.find((c) => c === value);
}
