import {
  dependsOnKeys,
  type EdgeRule,
  groupMembers,
  IMPLICIT_TARGETS,
  isGroup,
  type Need,
  needsOf,
  spelled,
} from '../model/edges.js';
import type { LoadedManifest } from '../model/manifest.js';
import { type Diagnostic, pathToString } from './diagnostics.js';

/** Why `from` needs `to`, as the diagnostic at `from` says it. */
const WHY: Readonly<Record<EdgeRule, (to: string) => string>> = {
  'depends-on': (to) => `its metadata.dependsOn names ${to}`,
  'workspace-before-instance': (to) => `it lives in ${to}, which must exist first`,
  'vpc-before-compute': (to) => `it needs the VPC ${to} deployed first`,
  'user-before-assignment': (to) => `it gives roles to ${to}, which must exist first`,
  'cluster-before-publish': (to) => `it publishes a blueprint to ${to}, which must exist first`,
  'version-before-publish': (to) => `it publishes ${to}, which must be enabled first`,
  'cluster-before-controllers': (to) => `it sets the controllers of ${to}, which must exist first`,
};

/**
 * Every dependency cycle, explicit (`dependsOn`), implicit (the edges the engine adds: a workspace
 * before its instances, the VPC before compute, ...) or mixed, each reported once with an error at
 * every manifest on it, at the field that makes its edge, the path spelled in kinds and names:
 * `Workspace ml/dev -> ComputeInstance ml/dev/gpu-1 -> Workspace ml/dev`. `walkAll` walks from
 * every manifest even where the walk may pass over most (the same diagnostics; for tests). Pure.
 */
export function cycles(byKey: ReadonlyMap<string, LoadedManifest>, walkAll = false): Diagnostic[] {
  // implicit edges alone always go from one kind to a later one: a cycle needs a dependsOn
  const explicit = new Set<string>();
  let targeted = false;
  for (const [key, m] of byKey) {
    if (!m.manifest.metadata.dependsOn?.length) continue;
    explicit.add(key);
    targeted ||= IMPLICIT_TARGETS.has(m.manifest.kind);
  }
  if (explicit.size === 0) return [];
  // not kept: `next` asks once per node, and a report again for the few nodes on a cycle (kept,
  // they were 100,000 lists at the peak of a 100,000-document validate)
  const needsOfKey = (key: string): readonly Need[] => needsOf(byKey.get(key)!.manifest);
  if (walkAll || targeted) {
    const members = groupMembers(manifestsOf(byKey));
    const next = (node: string): readonly string[] =>
      isGroup(node)
        ? (members.get(node) ?? [])
        : needsOfKey(node)
            .map((n) => n.target)
            .filter((t) => byKey.has(t) || members.has(t));
    return loops(byKey.keys(), next).flatMap((loop) => report(loop, byKey, members, needsOfKey));
  }
  // No manifest an implicit edge points at has a dependsOn (the usual set: dependsOn between
  // instances), so a manifest without one has no way back to itself: its implicit edges end at
  // a manifest with no edge going on (IMPLICIT_TARGETS). Every node of a cycle then has a
  // dependsOn, and the walk keeps to those: a walk from any other finds no cycle, and the nodes
  // it would mark done can reach none of these, so the same cycles are found in the same order.
  // (no implicit edge can lead to one of them: only the dependsOn are read)
  const next = (node: string): readonly string[] =>
    dependsOnKeys(byKey.get(node)!.manifest).filter((t) => explicit.has(t));
  const none = new Map<string, readonly string[]>(); // no group is on such a cycle
  return loops(explicit, next).flatMap((loop) => report(loop, byKey, none, needsOfKey));
}

/**
 * The cycles met by a depth-first walk from each of `roots` in turn, as lists of identity keys
 * with the first repeated at the end (group keys left out), in the order the walk meets them.
 */
function loops(roots: Iterable<string>, next: (node: string) => readonly string[]): string[][] {
  const out: string[][] = [];
  const state = new Map<string, 'active' | 'done'>();
  // Depth-first with an explicit stack, so a very long chain cannot overflow the call stack.
  for (const root of roots) {
    if (state.has(root)) continue;
    // `at` walks `next` (a shift() was quadratic over a project's thousands of VPCs)
    const path: { node: string; next: readonly string[]; at: number }[] = [
      { node: root, next: next(root), at: 0 },
    ];
    state.set(root, 'active');
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const to = top.next[top.at++];
      if (to === undefined) {
        state.set(top.node, 'done');
        path.pop();
        continue;
      }
      const s = state.get(to);
      if (s === 'active') {
        const nodes = path.map((p) => p.node);
        out.push([...nodes.slice(nodes.indexOf(to)), to].filter((n) => !isGroup(n)));
      } else if (s === undefined) {
        state.set(to, 'active');
        path.push({ node: to, next: next(to), at: 0 });
      }
    }
  }
  return out;
}

/** The manifests of `byKey` by key, without a copy of the map (100,000 pairs in a large load). */
function* manifestsOf(byKey: ReadonlyMap<string, LoadedManifest>) {
  for (const [key, m] of byKey) yield [key, m.manifest] as const;
}

/** One error at each manifest of `loop` (identity keys, the first repeated at the end). */
function report(
  loop: readonly string[],
  byKey: ReadonlyMap<string, LoadedManifest>,
  members: ReadonlyMap<string, readonly string[]>,
  needsOfKey: (key: string) => readonly Need[],
): Diagnostic[] {
  const shown = `dependency cycle: ${cyclePath(loop.map(spelled))}`;
  return loop.slice(0, -1).map((key, i) => {
    const to = loop[i + 1]!;
    const need = needsOfKey(key).find(
      (n) => n.target === to || members.get(n.target)?.includes(to),
    )!;
    const m = byKey.get(key)!;
    return {
      severity: 'error',
      code: 'dependency-cycle',
      message: `${shown}; here ${WHY[need.rule](spelled(to))}`,
      key,
      path: pathToString([...need.path]),
      ...m.positionOf(need.path),
    };
  });
}

/** `a -> b -> a`; a very long cycle keeps its first and last ten steps around a count. Pure. */
function cyclePath(loop: readonly string[]): string {
  if (loop.length <= 25) return loop.join(' -> ');
  const hidden = loop.length - 20;
  return [...loop.slice(0, 10), `(${hidden} more)`, ...loop.slice(-10)].join(' -> ');
}
