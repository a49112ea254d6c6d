import { identityKey, type Kind, type Manifest, type ManifestRef } from './manifest.js';

/** Why one resource must come before another; shown in tests, diagnostics and debugging. */
export type EdgeRule =
  | 'depends-on' // explicit metadata.dependsOn
  | 'workspace-before-instance'
  | 'vpc-before-compute'
  | 'user-before-assignment'
  | 'cluster-before-publish'
  | 'cluster-before-controllers'
  | 'version-before-publish';

/**
 * One thing a manifest needs before it: the identity key of a resource, or a group of them (every
 * VPC Service of a project, the BlueprintVersion of a blueprint version), with the rule and the
 * manifest's field that makes the edge (where a diagnostic about it points).
 */
export interface Need {
  /** An identity key, or a group key from {@link groupsOf} (never both kinds of string alike). */
  readonly target: string;
  readonly rule: EdgeRule;
  readonly path: readonly (string | number)[];
}

/** `after` needs `before`: its changes wait for `before`'s; removals go the other way. */
export interface KeyEdge {
  readonly before: string;
  readonly after: string;
  readonly rule: EdgeRule;
}

/**
 * The kinds an implicit edge of {@link needsOf} points at (a group standing for its members): a
 * workspace, a VPC Service, a user, a cluster, a blueprint version. None of them needs anything
 * implicitly, so a chain of implicit edges is one edge long, and only a `dependsOn` goes on from
 * its end (what lets the loader's cycle walk pass over most manifests: `manifests/cycles.ts`).
 */
export const IMPLICIT_TARGETS: ReadonlySet<Kind> = new Set<Kind>([
  'Workspace',
  'Service',
  'User',
  'Cluster',
  'BlueprintVersion',
]);

/** The kinds {@link needsOf} finds no implicit edge for (those of its `switch` without one). */
const NEED_NOTHING: ReadonlySet<Kind> = new Set<Kind>([
  'User',
  'Cluster',
  'Service',
  'Workspace',
  'BlueprintVersion',
  'Policy',
  'PowerSchedule',
  'ChangeWindow',
]);

/** Group keys start with `@`, which no identity key does (they start with a kind). */
const vpcGroup = (project: string | undefined) => `@vpc/${project ?? ''}`;
const versionGroup = (project: string | undefined, blueprint: string, version: string) =>
  `@version/${project ?? ''}/${blueprint}@${version}`;

/** The groups a manifest belongs to: a VPC Service to its project's VPCs, a version to its own. */
function groupsOf(m: Manifest): string[] {
  if (m.kind === 'Service') return [vpcGroup(m.metadata.project)];
  if (m.kind === 'BlueprintVersion') {
    return [versionGroup(m.metadata.project, m.spec.blueprint, m.spec.version)];
  }
  return [];
}

/**
 * What `m` needs before it (pure): its explicit `dependsOn`, and what the engine knows about the
 * platform (a workspace before its instances, the project's VPC deployed before compute, a user
 * before its assignments, a cluster before its publish and controllers, the blueprint version
 * before its publish).
 */
export function needsOf(m: Manifest): Need[] {
  // most manifests need nothing: asked for each of 100,000 in a plan, they make no list of their
  // `dependsOn` and no closure (under tsx each closure made was also named, a defineProperty)
  if (m.metadata.dependsOn === undefined && NEED_NOTHING.has(m.kind)) return [];
  const project = m.metadata.project;
  const needs: Need[] = dependsOnKeys(m).map((target, i) => ({
    target,
    rule: 'depends-on',
    path: ['metadata', 'dependsOn', i],
  }));
  const need = (target: string, rule: EdgeRule, ...path: string[]) =>
    needs.push({ target, rule, path });
  switch (m.kind) {
    case 'ComputeInstance':
      need(
        identityKey({ kind: 'Workspace', project, name: m.metadata.workspace }),
        'workspace-before-instance',
        'metadata',
        'workspace',
      );
      need(vpcGroup(project), 'vpc-before-compute', 'metadata', 'project');
      break;
    case 'ProjectAssignment':
      need(
        identityKey({ kind: 'User', name: m.spec.user }),
        'user-before-assignment',
        'spec',
        'user',
      );
      break;
    case 'BlueprintPublish':
      need(
        identityKey({ kind: 'Cluster', project, name: m.spec.cluster }),
        'cluster-before-publish',
        'spec',
        'cluster',
      );
      need(
        versionGroup(project, m.spec.blueprint.name, m.spec.blueprint.version),
        'version-before-publish',
        'spec',
        'blueprint',
        'version',
      );
      break;
    case 'ClusterControllers':
      need(
        identityKey({ kind: 'Cluster', project, name: m.metadata.name }),
        'cluster-before-controllers',
        'metadata',
        'name',
      );
      break;
    case 'User':
    case 'Cluster':
    case 'Service':
    case 'Workspace':
    case 'BlueprintVersion':
    case 'Policy':
    case 'PowerSchedule':
    case 'ChangeWindow':
      break;
    default: {
      const never: never = m;
      throw new Error(`unknown kind ${(never as Manifest).kind}`);
    }
  }
  return needs;
}

/** The keys `m`'s `dependsOn` names, in its order: the first of {@link needsOf}'s targets (pure). */
export function dependsOnKeys(m: Manifest): string[] {
  return (m.metadata.dependsOn ?? []).map((ref) => refKey(ref, m));
}

/**
 * The dependencies between resources (pure), from {@link needsOf}: only edges between keys
 * present in `manifests` are returned, a group standing for each of its members.
 */
export function keyEdges(manifests: ReadonlyMap<string, Manifest>): KeyEdge[] {
  const edges: KeyEdge[] = [];
  eachKeyEdge(manifests, (before, after, rule) => edges.push({ before, after, rule }));
  return edges;
}

/**
 * {@link keyEdges} one at a time, in the same order, without building them: a project's VPCs
 * each come before each of its instances, millions of edges in a large platform. `manifests` is
 * read with `forEach` (in its order, as `for…of` reads it): no `[key, manifest]` pair per key,
 * twice over 100,000 keys in a plan's ordering.
 */
export function eachKeyEdge(
  manifests: ReadonlyMap<string, Manifest>,
  visit: (before: string, after: string, rule: EdgeRule) => void,
): void {
  const members = new Map<string, string[]>();
  manifests.forEach((m, key) => {
    addMember(members, key, m);
  });
  manifests.forEach((m, after) => {
    for (const n of needsOf(m)) {
      const befores = members.get(n.target);
      if (befores === undefined) {
        if (n.target !== after && manifests.has(n.target)) visit(n.target, after, n.rule);
        continue;
      }
      for (const before of befores) {
        if (before !== after && manifests.has(before)) visit(before, after, n.rule);
      }
    }
  });
}

/** Group key → the identity keys of its members (pure). */
export function groupMembers(
  manifests: Iterable<readonly [string, Manifest]>,
): Map<string, string[]> {
  const members = new Map<string, string[]>();
  for (const [key, m] of manifests) addMember(members, key, m);
  return members;
}

/** Adds `key` to the members of each group of `m`. */
function addMember(members: Map<string, string[]>, key: string, m: Manifest): void {
  for (const g of groupsOf(m)) {
    const list = members.get(g);
    if (list)
      list.push(key); // a copy per member was quadratic in a project's VPCs
    else members.set(g, [key]);
  }
}

/** True for a group key of {@link groupsOf}, false for an identity key. */
export const isGroup = (key: string): boolean => key.startsWith('@');

/** The key a `dependsOn` reference names; project and workspace default to the referrer's. */
function refKey(ref: ManifestRef, from: Manifest): string {
  const project = ref.kind === 'User' ? undefined : (ref.project ?? from.metadata.project);
  const workspace =
    ref.kind === 'ComputeInstance' ? (ref.workspace ?? from.metadata.workspace) : undefined;
  return identityKey({ kind: ref.kind, name: ref.name, project, workspace });
}

/** `Workspace ml/dev` for `Workspace/ml/dev`: a key as people read it (pure). */
export function spelled(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? key : `${key.slice(0, slash)} ${key.slice(slash + 1)}`;
}
