import { identityKey, type Manifest, type ManifestRef } from '../model/manifest.js';

/** Why one resource must come before another; shown in tests and debugging output. */
type EdgeRule =
  | 'depends-on' // explicit metadata.dependsOn
  | 'workspace-before-instance'
  | 'vpc-before-compute'
  | 'user-before-assignment'
  | 'cluster-before-publish'
  | 'cluster-before-controllers'
  | 'version-before-publish';

/** `after` needs `before`: its changes wait for `before`'s; deletions go the other way. */
export interface KeyEdge {
  readonly before: string;
  readonly after: string;
  readonly rule: EdgeRule;
}

/**
 * The dependencies between resources (pure), from explicit `metadata.dependsOn` and what the
 * engine knows about the platform. Only edges between keys present in `manifests` are returned.
 */
export function keyEdges(manifests: ReadonlyMap<string, Manifest>): KeyEdge[] {
  const edges: KeyEdge[] = [];
  const add = (before: string, after: string, rule: EdgeRule) => {
    if (before !== after && manifests.has(before)) edges.push({ before, after, rule });
  };
  const byKind = new Map<Manifest['kind'], [string, Manifest][]>();
  for (const entry of manifests) {
    const list = byKind.get(entry[1].kind) ?? [];
    list.push(entry);
    byKind.set(entry[1].kind, list);
  }
  const all = (kind: Manifest['kind']) => byKind.get(kind) ?? [];
  for (const [key, m] of manifests) {
    const project = m.metadata.project;
    for (const ref of m.metadata.dependsOn ?? []) add(refKey(ref, m), key, 'depends-on');
    switch (m.kind) {
      case 'ComputeInstance':
        add(
          identityKey({ kind: 'Workspace', project, name: m.metadata.workspace }),
          key,
          'workspace-before-instance',
        );
        for (const [svc, s] of all('Service')) {
          if (s.metadata.project === project) add(svc, key, 'vpc-before-compute');
        }
        break;
      case 'ProjectAssignment':
        add(identityKey({ kind: 'User', name: m.spec.user }), key, 'user-before-assignment');
        break;
      case 'BlueprintPublish':
        add(
          identityKey({ kind: 'Cluster', project, name: m.spec.cluster }),
          key,
          'cluster-before-publish',
        );
        for (const [v, bv] of all('BlueprintVersion')) {
          if (
            bv.kind === 'BlueprintVersion' &&
            bv.metadata.project === project &&
            bv.spec.blueprint === m.spec.blueprint.name &&
            bv.spec.version === m.spec.blueprint.version
          ) {
            add(v, key, 'version-before-publish');
          }
        }
        break;
      case 'ClusterControllers':
        add(
          identityKey({ kind: 'Cluster', project, name: m.metadata.name }),
          key,
          'cluster-before-controllers',
        );
        break;
      case 'User':
      case 'Cluster':
      case 'Service':
      case 'Workspace':
      case 'BlueprintVersion':
        break;
      default: {
        const never: never = m;
        throw new Error(`unknown kind ${(never as Manifest).kind}`);
      }
    }
  }
  return edges;
}

/** The key a `dependsOn` reference names; project and workspace default to the referrer's. */
function refKey(ref: ManifestRef, from: Manifest): string {
  const project = ref.kind === 'User' ? undefined : (ref.project ?? from.metadata.project);
  const workspace =
    ref.kind === 'ComputeInstance' ? (ref.workspace ?? from.metadata.workspace) : undefined;
  return identityKey({ kind: ref.kind, name: ref.name, project, workspace });
}
