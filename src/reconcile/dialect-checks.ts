import type { Dialect } from '../core/dialect.js';
import type { Action } from '../model/action.js';
import { ApiError, NetworkError, RequestTimeoutError } from '../model/api-errors.js';
import type { LoadedManifest } from '../model/manifest.js';
import type { PlanDiagnostic } from '../model/plan.js';
import type { ProfileNames } from '../model/provider.js';

type Path = (string | number)[];

/** One value the dialect does not accept, where it is. */
interface Misfit {
  readonly path: Path;
  readonly message: string;
}

/**
 * What the manifests ask that the platform's dialect does not have (pure): the schemas accept
 * the union of the dialects (docs/dialects.md), so a value or field only another dialect knows
 * (`type: gke`, `computeType: vm`, `spec.datacenter` on the spec's platform) is an error here,
 * at its `file:line:col`, before anything is sent.
 */
export function dialectDiagnostics(
  manifests: readonly LoadedManifest[],
  dialect: Dialect,
): PlanDiagnostic[] {
  const out: PlanDiagnostic[] = [];
  for (const m of manifests) {
    // only these kinds hold what dialects differ in: nothing is made for the others (most of
    // 100,000 manifests are workspaces and users)
    if (!DIALECT_KINDS.has(m.manifest.kind)) continue;
    for (const f of misfits(m, dialect)) {
      out.push(at(m, f.path, `${f.message} (dialect ${dialect.name})`));
    }
  }
  return out;
}

/** The kinds {@link misfits} looks into. */
const DIALECT_KINDS: ReadonlySet<string> = new Set(['Cluster', 'ComputeInstance', 'Service']);

function misfits(loaded: LoadedManifest, dialect: Dialect): Misfit[] {
  const m = loaded.manifest;
  const out: Misfit[] = [];
  const oneOf = (value: unknown, allowed: readonly string[], path: Path) => {
    if (typeof value === 'string' && !allowed.includes(value)) {
      out.push({ path, message: `${value} is not accepted; use ${allowed.join(' or ')}` });
    }
  };
  const fieldOf = (present: unknown, extra: Dialect['instanceExtras'][number], path: Path) => {
    if (present !== undefined && !dialect.instanceExtras.includes(extra)) {
      out.push({ path, message: `${path.at(-1)} is a field this platform does not have` });
    }
  };
  const variables = (list: readonly { options?: unknown }[] | undefined) =>
    (list ?? []).forEach((v, i) => {
      fieldOf(v.options, 'variableOptions', ['spec', 'variables', i, 'options']);
    });
  if (m.kind === 'Cluster') {
    const e = dialect.clusterEnums;
    const spec = m.spec as Record<string, unknown>;
    const config = (spec.config ?? {}) as {
      location?: { type?: unknown };
      network?: { networkAccess?: { privacy?: unknown } };
      nodePools?: { upgradeSettings?: { strategy?: unknown } }[];
    };
    oneOf(spec.type, e.type, ['spec', 'type']);
    oneOf(config.location?.type, e.locationType, ['spec', 'config', 'location', 'type']);
    const privacy = ['spec', 'config', 'network', 'networkAccess', 'privacy'];
    oneOf(config.network?.networkAccess?.privacy, e.privacy, privacy);
    (config.nodePools ?? []).forEach((p, i) => {
      const path = ['spec', 'config', 'nodePools', i, 'upgradeSettings', 'strategy'];
      oneOf(p.upgradeSettings?.strategy, e.upgradeStrategy, path);
    });
  } else if (m.kind === 'ComputeInstance') {
    oneOf(m.spec.computeType, dialect.computeTypes, ['spec', 'computeType']);
    fieldOf(m.spec.datacenter, 'datacenter', ['spec', 'datacenter']);
    fieldOf(m.spec.storageDetails, 'storageDetails', ['spec', 'storageDetails']);
    variables(m.spec.variables);
  } else if (m.kind === 'Service') {
    variables(m.spec.variables);
  }
  return out;
}

/**
 * Profile names the platform does not offer the project (I/O through `names`), for the
 * instances and services a plan creates or updates: an error at the profile's line instead of a
 * failed apply. Nothing where the dialect cannot read profiles (`names` undefined).
 */
export async function profileDiagnostics(
  actions: readonly Action[],
  loaded: ReadonlyMap<string, LoadedManifest>,
  names: ProfileNames | undefined,
): Promise<PlanDiagnostic[]> {
  if (!names) return [];
  const checks = actions.map(async (a) => {
    const source = loaded.get(a.key);
    if (!source || (a.type !== 'create' && a.type !== 'update')) return [];
    const m = source.manifest;
    if (m.kind !== 'ComputeInstance' && m.kind !== 'Service') return [];
    const kind = m.kind === 'Service' ? 'service' : 'compute';
    const field = m.kind === 'Service' ? 'serviceProfile' : 'computeProfile';
    const name = m.kind === 'Service' ? m.spec.serviceProfile.name : m.spec.computeProfile.name;
    let offered: ReadonlySet<string>;
    try {
      offered = await names(m.metadata.project, kind);
    } catch (err) {
      // the platform checks the profile on create anyway: an unread list is no failed run
      if (!platformError(err)) throw err;
      const message = `${kind} profile ${name} not checked against project ${m.metadata.project}'s offer: ${(err as Error).message}`;
      return [{ ...at(source, ['spec', field, 'name'], message), severity: 'warning' as const }];
    }
    if (offered.has(name)) return [];
    const known = [...offered].sort().join(', ') || 'none';
    const message = `${kind} profile ${name} is not offered to project ${m.metadata.project} (offered: ${known})`;
    return [at(source, ['spec', field, 'name'], message)];
  });
  return (await Promise.all(checks)).flat();
}

function platformError(err: unknown): boolean {
  return (
    err instanceof ApiError || err instanceof NetworkError || err instanceof RequestTimeoutError
  );
}

function at(m: LoadedManifest, path: Path, message: string): PlanDiagnostic {
  const where = m.positionOf(path);
  return {
    severity: 'error',
    key: m.key,
    message,
    file: where.file,
    line: where.line,
    col: where.col,
  };
}
