import type { Dialect } from '../core/dialect.js';
import type { ManifestOf } from '../model/manifest.js';
import { type Doc, managedBody } from './support/diff.js';
import { obj, pick, str } from './support/scope.js';

/**
 * A cluster between the manifest and the wire, per dialect (docs/dialects.md): versions are kept
 * as written in the manifest (`"1.30"`) and sent as the dialect types them; the phase is read from
 * `status.status` or from the vendor's `commonStatus`. Pure.
 */

type Versioned = { controlPlaneVersion?: unknown; nodePools?: { nodeVersion?: unknown }[] };

function mapVersions(spec: Doc, map: (v: unknown, at: string) => unknown): Doc {
  const config = obj(spec.config) as (Doc & Versioned) | undefined;
  if (!config) return spec;
  const pools = Array.isArray(config.nodePools) ? config.nodePools : undefined;
  return {
    ...spec,
    config: {
      ...config,
      ...(config.controlPlaneVersion !== undefined && {
        controlPlaneVersion: map(config.controlPlaneVersion, 'controlPlaneVersion'),
      }),
      ...(pools && {
        nodePools: pools.map((p, i) =>
          p.nodeVersion === undefined ? p : { ...p, nodeVersion: map(p.nodeVersion, `${i}`) },
        ),
      }),
    },
  };
}

/** The body a create or update sends: versions as the dialect types them. */
export function clusterWireBody(desired: ManifestOf<'Cluster'>, dialect: Dialect): Doc {
  const body = managedBody(desired);
  const toWire = (v: unknown) =>
    dialect.versionType === 'number' ? (typeof v === 'string' ? Number(v) : v) : String(v);
  return { ...body, spec: mapVersions(obj(body.spec) ?? {}, toWire) };
}

/** The form plan compares: versions as text, however the manifest was built. */
export function clusterManagedBody(desired: ManifestOf<'Cluster'>): Doc {
  const body = managedBody(desired);
  return { ...body, spec: mapVersions(obj(body.spec) ?? {}, (v) => String(v)) };
}

/** The versions of a desired cluster, by field (`controlPlaneVersion`, pool index). */
function desiredVersions(desired: ManifestOf<'Cluster'> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (desired) mapVersions(desired.spec as Doc, (v, at) => out.set(at, String(v)));
  return out;
}

/**
 * A live cluster's spec with its versions as text: a number the platform holds (1.3) reads as the
 * manifest's text when they are the same number (`"1.30"`), so only a real change is a diff.
 */
export function versionsAsText(spec: Doc, desired?: ManifestOf<'Cluster'>): Doc {
  const wanted = desiredVersions(desired);
  return mapVersions(spec, (v, at) => {
    const text = wanted.get(at);
    if (typeof v === 'number' && text !== undefined && Number(text) === v) return text;
    return typeof v === 'number' ? String(v) : v;
  });
}

/** A live cluster's managed form, its versions as text ({@link versionsAsText}). */
export function normalizeCluster(
  item: Doc,
  infraGroup: string,
  desired?: ManifestOf<'Cluster'>,
): Doc {
  return {
    apiVersion: str(item.apiVersion) ?? `${infraGroup}/v3`,
    kind: 'Cluster',
    metadata: pick(obj(item.metadata), ['name', 'project', 'description', 'displayName', 'labels']),
    spec: versionsAsText(obj(item.spec) ?? {}, desired),
  };
}

const PHASES: Record<string, string> = {
  ClusterProvisioning: 'provisioning',
  ClusterReady: 'ready',
  ClusterDeleting: 'deleting',
  ClusterDeleted: 'deleted',
};

/** The cluster's phase (`provisioning`, `ready`, `deleting`), whichever shape its status has. */
export function clusterPhase(item: Doc | undefined): string | undefined {
  const status = obj(item?.status);
  const plain = str(status?.status);
  if (plain !== undefined) return plain;
  const type = str(obj(status?.commonStatus)?.conditionType);
  return type === undefined ? undefined : (PHASES[type] ?? type);
}
