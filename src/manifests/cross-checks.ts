import {
  identityKey,
  type LoadedManifest,
  type ManifestRef,
  type Metadata,
} from '../model/manifest.js';
import { cycles } from './cycles.js';
import { type Diagnostic, type DiagnosticCode, pathToString } from './diagnostics.js';

const where = (m: LoadedManifest) => `${m.source.file}:${m.source.line}:${m.source.col}`;

/** The identity key a `dependsOn` entry points at; project and workspace default to the referrer's. */
function resolveRef(ref: ManifestRef, from: Metadata): string {
  const project = ref.kind === 'User' ? undefined : (ref.project ?? from.project);
  const workspace =
    ref.kind === 'ComputeInstance' ? (ref.workspace ?? from.workspace) : ref.workspace;
  return identityKey({ kind: ref.kind, name: ref.name, project, workspace });
}

/** What a kind acts on, when two manifests with different names could fight over it. */
function targetOf(m: LoadedManifest): string | undefined {
  const x = m.manifest;
  switch (x.kind) {
    case 'BlueprintPublish':
      return `the blueprint of cluster ${x.metadata.project}/${x.spec.cluster}`;
    case 'BlueprintVersion':
      return `blueprint version ${x.metadata.project}/${x.spec.blueprint}@${x.spec.version}`;
    case 'ProjectAssignment':
      return `the roles of ${x.spec.user} in project ${x.metadata.project}`;
    default:
      return undefined;
  }
}

/**
 * Checks that need every document at once: duplicate identities and targets, references to
 * workspaces, VPCs and users that are not declared (warnings: they may exist on the platform),
 * `dependsOn` entries that point nowhere, and dependency cycles, explicit or through the engine's
 * implicit edges (`cycles.ts`).
 * `declared` holds the keys of documents that failed validation, so that a reference to them is
 * not reported a second time as undeclared. Pure.
 */
export function crossChecks(
  manifests: readonly LoadedManifest[],
  declared: ReadonlySet<string> = new Set(),
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (
    m: LoadedManifest,
    severity: Diagnostic['severity'],
    code: DiagnosticCode,
    message: string,
    path: (string | number)[] = [],
  ) =>
    out.push({
      severity,
      code,
      message,
      key: m.key,
      ...(path.length ? { path: pathToString(path) } : {}),
      ...m.positionOf(path),
    });

  const byKey = new Map<string, LoadedManifest>();
  const byTarget = new Map<string, LoadedManifest>();
  for (const m of manifests) {
    const first = byKey.get(m.key);
    if (first)
      report(m, 'error', 'duplicate-identity', `${m.key} is already declared at ${where(first)}`);
    else byKey.set(m.key, m);
    const target = targetOf(m);
    if (target === undefined) continue;
    const owner = byTarget.get(target);
    if (owner && !first) {
      report(
        m,
        'error',
        'duplicate-target',
        `${target} is already set by ${owner.key} at ${where(owner)}`,
      );
    } else byTarget.set(target, m);
  }

  const exists = (key: string) => byKey.has(key) || declared.has(key);
  const vpcProjects = new Set<string | undefined>();
  for (const m of manifests) {
    if (m.manifest.kind === 'Service') vpcProjects.add(m.manifest.metadata.project);
  }
  const withoutVpc = new Map<string | undefined, { first: LoadedManifest; count: number }>();
  const disabled = new Map<string, LoadedManifest>();
  for (const m of manifests) {
    const x = m.manifest;
    if (x.kind === 'BlueprintVersion' && !x.spec.enabled) {
      disabled.set(`${x.metadata.project}/${x.spec.blueprint}@${x.spec.version}`, m);
    }
  }
  for (const m of manifests) {
    const x = m.manifest;
    if (x.kind === 'BlueprintPublish' || x.kind === 'Cluster') {
      const bp = x.spec.blueprint;
      const off = disabled.get(`${x.metadata.project}/${bp.name}@${bp.version}`);
      if (off) {
        const message = `blueprint ${bp.name} version ${bp.version} is disabled by ${off.key}; a disabled version cannot be published`;
        report(m, 'error', 'disabled-blueprint-version', message, ['spec', 'blueprint', 'version']);
      }
    }
    if (x.kind === 'BlueprintPublish' || x.kind === 'ClusterControllers') {
      const name = x.kind === 'BlueprintPublish' ? x.spec.cluster : x.metadata.name;
      if (!exists(identityKey({ kind: 'Cluster', project: x.metadata.project, name }))) {
        const message = `cluster ${name} is not declared in project ${x.metadata.project}; it must already exist on the platform`;
        const path = x.kind === 'BlueprintPublish' ? ['spec', 'cluster'] : ['metadata', 'name'];
        report(m, 'warning', 'undeclared-cluster', message, path);
      }
    }
    if (x.kind === 'ComputeInstance') {
      const ws = identityKey({
        kind: 'Workspace',
        project: x.metadata.project,
        name: x.metadata.workspace,
      });
      if (!exists(ws)) {
        const message = `workspace ${x.metadata.workspace} is not declared in project ${x.metadata.project}; it must already exist on the platform`;
        report(m, 'warning', 'undeclared-workspace', message, ['metadata', 'workspace']);
      }
      if (!vpcProjects.has(x.metadata.project)) {
        const seen = withoutVpc.get(x.metadata.project);
        if (seen) seen.count++;
        else withoutVpc.set(x.metadata.project, { first: m, count: 1 });
      }
    }
    if (
      x.kind === 'ProjectAssignment' &&
      !exists(identityKey({ kind: 'User', name: x.spec.user }))
    ) {
      const message = `user ${x.spec.user} is not declared; it must already exist on the platform`;
      report(m, 'warning', 'undeclared-user', message, ['spec', 'user']);
    }
    // a loop, not forEach: most manifests have no dependsOn, and this runs once per manifest
    const deps = x.metadata.dependsOn ?? [];
    for (let i = 0; i < deps.length; i++) {
      const target = resolveRef(deps[i]!, x.metadata);
      if (!exists(target)) {
        const message = `depends on ${target}, which is not declared`;
        report(m, 'error', 'dangling-dependency', message, ['metadata', 'dependsOn', i]);
      }
    }
  }
  // once per project, at its first instance: thousands of instances are one thing to fix (and
  // each warning's position costs a look at its file)
  for (const [project, { first, count }] of withoutVpc) {
    const what = count === 1 ? 'its compute instance needs' : `its ${count} compute instances need`;
    const message = `no VPC Service is declared in project ${project}; ${what} a deployed VPC there (plan checks the platform)`;
    report(first, 'warning', 'no-vpc-in-project', message, ['metadata', 'project']);
  }
  out.push(...cycles(byKey));
  return out;
}
