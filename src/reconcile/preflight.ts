import type { Action } from '../model/action.js';
import type { LoadedManifest, SecretSource } from '../model/manifest.js';
import type { Plan, PlanDiagnostic } from '../model/plan.js';
import { checkVpcs, type VpcProjects } from './preflight-vpc.js';

/** What the preflight may use (I/O, injected): secrets are resolved and at once forgotten. */
export interface PreflightPorts {
  readonly resolveSecret: (source: SecretSource) => Promise<string>;
  /** Where the platform has a VPC deployed; undefined skips that check. */
  readonly vpcProjects?: VpcProjects;
}

/** A `passwordFrom` reference inside a manifest, with the path that leads to it. */
interface SecretReference {
  readonly path: readonly (string | number)[];
  readonly source: SecretSource;
}

/**
 * Checks, before anything runs, what execution would otherwise find late (I/O through `ports`):
 * every secret reference an action of the plan will read (the `passwordFrom` of a user to
 * create) must resolve, and compute is deployed only where a VPC is or will be
 * (`preflight-vpc.ts`). Returns error diagnostics at the manifest's file:line:col; a secret's
 * value is never kept or shown, only the variable or file named. `loaded` is by identity key.
 */
export async function preflight(
  plan: Plan,
  loaded: ReadonlyMap<string, LoadedManifest>,
  ports: PreflightPorts,
): Promise<PlanDiagnostic[]> {
  const checks: Promise<PlanDiagnostic | undefined>[] = [];
  for (const a of plan.actions) {
    // the action first: a no-op plan of 100,000 looked up every manifest to send no secret
    if (!readsSecrets(a)) continue;
    const source = loaded.get(a.key);
    if (!source) continue;
    for (const ref of secretReferences(source.manifest)) {
      checks.push(checkSecret(a, source, ref, ports));
    }
  }
  const vpcs = ports.vpcProjects ? checkVpcs(plan, loaded, ports.vpcProjects) : [];
  const secrets = (await Promise.all(checks)).filter((d): d is PlanDiagnostic => d !== undefined);
  return [...secrets, ...(await vpcs)];
}

/** The actions that send the manifest's secrets: only creates (a password is sent once). */
function readsSecrets(a: Action): boolean {
  return a.type === 'create';
}

async function checkSecret(
  a: Action,
  source: LoadedManifest,
  ref: SecretReference,
  ports: PreflightPorts,
): Promise<PlanDiagnostic | undefined> {
  try {
    await ports.resolveSecret(ref.source);
    return undefined;
  } catch (err) {
    const at = source.positionOf(ref.path);
    const why = err instanceof Error ? err.message : String(err);
    return {
      severity: 'error',
      key: a.key,
      message: `${why}; the ${a.type} needs it`,
      file: at.file,
      line: at.line,
      col: at.col,
    };
  }
}

/**
 * Every `passwordFrom` object in a manifest, depth first, in the order of its keys (pure). One
 * path is walked and copied only for a reference found: every create of a plan is walked, and
 * a copy of the path at every level, with a list per object, showed in a paced apply's profile.
 */
export function secretReferences(value: unknown): SecretReference[] {
  const found: SecretReference[] = [];
  const path: (string | number)[] = [];
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i]);
        path.pop();
      }
      return;
    }
    for (const k of Object.keys(v)) {
      const child = (v as Record<string, unknown>)[k];
      if (k === 'passwordFrom' && isSource(child)) {
        found.push({ path: [...path, k, 'env' in child ? 'env' : 'file'], source: child });
        continue;
      }
      path.push(k);
      walk(child);
      path.pop();
    }
  };
  walk(value);
  return found;
}

function isSource(v: unknown): v is SecretSource {
  if (v === null || typeof v !== 'object') return false;
  return (
    typeof (v as { env?: unknown }).env === 'string' ||
    typeof (v as { file?: unknown }).file === 'string'
  );
}
