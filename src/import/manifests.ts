import {
  type Manifest,
  manifestKey,
  POWER_ANNOTATION,
  type UserManifest,
} from '../model/manifest.js';
import type { LiveObject } from '../model/provider.js';

/**
 * The environment variable an imported user's `passwordFrom` names: `PLATCTL_PASSWORD_` and the
 * username in upper case with every other character `_` (`alice@acme.example` →
 * `PLATCTL_PASSWORD_ALICE_ACME_EXAMPLE`). Read only if platctl ever has to create the user again.
 * Pure.
 */
export function passwordVariable(username: string): string {
  return `PLATCTL_PASSWORD_${username.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * `${NAME}` in a platform value would be substituted when the manifest is loaded; `$${NAME}` is
 * the loader's escape for the literal text. Pure.
 */
export function escapeVariables(value: unknown): unknown {
  if (typeof value === 'string')
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, '$$$${$1}');
  if (Array.isArray(value)) return value.map(escapeVariables);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeVariables(v)]));
  }
  return value;
}

/**
 * The manifest of a live object: its managed fields only (the providers' normal form: no status,
 * ids or server timestamps), a `passwordFrom` placeholder for a user (the API never returns a
 * password), `platctl.io/power-state: "off"` for an instance that is off, and `${` escaped. The
 * API cannot read a user's groups: `groups` are the ones platctl last applied, if any. Pure.
 */
export function manifestOf(live: LiveObject, groups?: UserManifest['spec']['groups']): Manifest {
  const m = escapeVariables(structuredClone(live.body)) as Manifest;
  if (m.kind === 'User') {
    m.spec = {
      ...m.spec,
      passwordFrom: { env: passwordVariable(m.metadata.name) },
      ...(groups?.length ? { groups: structuredClone(groups) } : {}),
    };
  }
  if (m.kind === 'ComputeInstance' && live.powerState === 'off') {
    m.metadata.annotations = { ...m.metadata.annotations, [POWER_ANNOTATION]: 'off' };
  }
  return m;
}

/** Kinds in the order a project's file lists them: network, workspaces, compute, clusters, rest. */
const FILE_ORDER = [
  'Service',
  'Workspace',
  'ComputeInstance',
  'Cluster',
  'ClusterControllers',
  'BlueprintVersion',
  'BlueprintPublish',
  'ProjectAssignment',
];

/** Stable order: by kind as above, then by identity key. Pure; returns a new array. */
export function sortManifests(manifests: readonly Manifest[]): Manifest[] {
  const rank = (m: Manifest) => FILE_ORDER.indexOf(m.kind);
  return [...manifests].sort(
    (a, b) => rank(a) - rank(b) || (manifestKey(a) < manifestKey(b) ? -1 : 1),
  );
}
