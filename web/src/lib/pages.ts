import type { Revision } from '../api/status.js';
import { showValue } from './format.js';

/** One field of a diff in words: `platform has "x", git says "y"`. Pure. */
export function diffWords(d: {
  readonly op: 'add' | 'remove' | 'replace';
  readonly desired?: unknown;
  readonly live?: unknown;
}): string {
  const live = d.op === 'add' && d.live === undefined ? 'nothing' : showValue(d.live);
  const git = d.op === 'remove' && d.desired === undefined ? 'nothing' : showValue(d.desired);
  return `platform has ${live}, git says ${git}`;
}

/** `/spec/powerState` → `spec.powerState`; pointers' escapes undone. Pure. */
export function fieldName(pointer: string): string {
  if (!pointer.startsWith('/')) return pointer;
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** Revisions that are the same commit, shown once: the labels that name it and how many. */
export interface RevisionGroup {
  readonly labels: readonly string[];
  readonly rev?: Revision;
}

/**
 * The source's revision rows with equal revisions merged (fetched = last good = last applied =
 * last attempted is one row, "4 ×"), in the order of their first label. Pure.
 */
export function collapseRevisions(
  rows: readonly (readonly [label: string, rev: Revision | undefined])[],
): RevisionGroup[] {
  const out: { labels: string[]; rev?: Revision }[] = [];
  for (const [label, rev] of rows) {
    const same = out.find((g) => g.rev?.revision === rev?.revision);
    if (same) same.labels.push(label);
    else out.push({ labels: [label], ...(rev ? { rev } : {}) });
  }
  return out;
}

/** `2026-11-23 10:00:00 UTC`: the one absolute form (shown on hover). Pure. */
export function absoluteTime(iso: string | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** An action's bar on a run's timeline, in percent of the run's duration. */
export interface Bar {
  readonly offset: number;
  readonly width: number;
}

/**
 * Where an action that started at `startedAt` and ran `durationMs` sits in a run that started at
 * `runStart` and lasted `runMs`; undefined for an action that did not start. Pure.
 */
export function barOf(
  run: { readonly startedAt: string; readonly durationMs: number },
  action: { readonly startedAt?: string; readonly durationMs?: number },
): Bar | undefined {
  if (action.startedAt === undefined) return undefined;
  const span = Math.max(1, run.durationMs);
  const from = Date.parse(action.startedAt) - Date.parse(run.startedAt);
  const offset = Math.min(100, Math.max(0, (from / span) * 100));
  const width = Math.min(100 - offset, Math.max(0.5, ((action.durationMs ?? 0) / span) * 100));
  return { offset, width };
}

/**
 * The lines (0-based) of a YAML document as written that hold one of the `changed` fields
 * (pointers): found by following the keys' indentation. A field the text does not name (a
 * default, a variable reached by name) marks nothing. Pure.
 */
export function writtenLines(yaml: string, changed: readonly string[]): Set<number> {
  const marks = new Set<number>();
  const lines = yaml.split('\n');
  const stack: { indent: number; key: string }[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)(?:- )?(["']?)([^"':#]+)\2\s*:/.exec(line);
    if (!m) return;
    const indent = (m[1] ?? '').length + (line.trimStart().startsWith('- ') ? 2 : 0);
    while (stack.length > 0 && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop();
    stack.push({ indent, key: (m[3] ?? '').trim() });
    const path = `/${stack.map((s) => s.key).join('/')}`;
    if (changed.some((c) => c === path || path.startsWith(`${c}/`))) marks.add(i);
  });
  return marks;
}

/**
 * A link to `file` at `line` in the forge's web view of `repo` at `revision` (GitHub, Gitea,
 * Forgejo: `/blob/`; GitLab: `/-/blob/`), or undefined when the repository is no http(s) URL
 * (a local path, ssh). `path` is the source's path inside the repository. Pure.
 */
export function sourceLink(
  source: { readonly repo?: string; readonly path?: string },
  revision: string | undefined,
  file: string,
  line: number,
): string | undefined {
  const repo = source.repo;
  if (!repo || !revision || !/^https?:\/\//.test(repo)) return undefined;
  const base = repo.replace(/\/+$/, '').replace(/\.git$/, '');
  const blob = /gitlab/i.test(new URL(base).host) ? '/-/blob/' : '/blob/';
  const dir = (source.path ?? '').replace(/^\.?\/+/, '').replace(/\/*$/, '/');
  const inRepo = `${dir === '/' ? '' : dir}${file}`.split('/').map(encodeURIComponent).join('/');
  return `${base}${blob}${encodeURIComponent(revision)}/${inRepo}#L${line}`;
}
