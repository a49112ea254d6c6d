import type { CompiledRule } from '../manifests/policy-rules.js';
import type { LoadedManifest, Manifest } from '../model/manifest.js';
import type { Plan } from '../model/plan.js';

// What each Policy rule is checked against: the run's manifests and the resources the plan
// deletes, narrowed by the rule's `match` (kinds, projects, file globs). Pure.

/** What a rule is checked for: a manifest of the run, or a resource the plan deletes. */
export interface Subject {
  readonly key: string;
  readonly manifest: Manifest;
  /** The manifest's file; empty for a deletion (its manifest is gone from the files). */
  readonly file: string;
  /** A resource the plan deletes that no manifest declares. */
  readonly deleted?: true;
  /** Where to report it (found on first use: may re-parse the file). */
  at(): { file?: string; line?: number; col?: number };
}

/**
 * Every manifest of the run but platctl's own governance kinds, then each resource the plan
 * deletes that no manifest declares, as the platform has it (`object` and `live` its live
 * object, `action` `delete`): the rules that read `action` see them.
 */
export function subjects(
  plan: Plan,
  manifests: readonly LoadedManifest[],
  live: ReadonlyMap<string, Record<string, unknown>>,
): Subject[] {
  const out: Subject[] = manifests
    .filter((m) => m.manifest.kind !== 'Policy' && m.manifest.kind !== 'ChangeWindow')
    .map((m) => ({
      key: m.key,
      manifest: m.manifest,
      file: m.file ?? m.source.file,
      at: () => ({ file: m.source.file, line: m.source.line, col: m.source.col }),
    }));
  const declared = new Set(manifests.map((m) => m.key));
  for (const a of plan.actions) {
    const body = live.get(a.key);
    if (a.type !== 'delete' || declared.has(a.key) || !body) continue;
    declared.add(a.key);
    const manifest = body as unknown as Manifest;
    out.push({ key: a.key, manifest, file: '', deleted: true, at: () => ({}) });
  }
  return out;
}

/** True when the rule's match selects this manifest (an absent list matches everything). */
export function matches(c: CompiledRule, m: Manifest, file: string): boolean {
  const match = c.rule.match;
  if (!match) return true;
  if (match.kinds && !match.kinds.includes(m.kind)) return false;
  const project = m.metadata?.project;
  if (match.projects && (project === undefined || !match.projects.includes(project))) return false;
  if (match.files && !match.files.some((g) => globRegExp(g).test(file))) return false;
  return true;
}

const globs = new Map<string, RegExp>();
const GLOB_TOKENS: Record<string, string> = {
  '**/': '(?:.*/)?',
  '**': '.*',
  '*': '[^/]*',
  '?': '[^/]',
};

/**
 * `*` (not `/`), `**` (anything) and `?`, matched against the whole path or any tail of it that
 * starts at a `/` (`teams/a/**` matches `/repo/teams/a/x.yaml`); cached. Pure.
 */
function globRegExp(glob: string): RegExp {
  let re = globs.get(glob);
  if (re) return re;
  const body = glob
    .split(/(\*\*\/?|\*|\?)/)
    .map((t) => GLOB_TOKENS[t] ?? t.replace(/[.+^${}()|[\]\\]/g, '\\$&'))
    .join('');
  re = new RegExp(`^(?:.*/)?${body}$`);
  globs.set(glob, re);
  return re;
}
