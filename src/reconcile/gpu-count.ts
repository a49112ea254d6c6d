import type { FieldChange } from '../model/action.js';
import { gpusOf, type PriceFile } from '../model/prices.js';

/** The variables that say how many GPU worker nodes a Kubernetes instance has. */
const WORKER_NODES = ['H100 Worker Nodes', 'L40 Worker Nodes'] as const;

/** An instance's spec as far as its GPUs go (a manifest's, or a live body's). */
interface ComputeSpecish {
  readonly computeType?: unknown;
  readonly computeProfile?: { readonly name?: unknown };
  readonly variables?: readonly { readonly name?: unknown; readonly value?: unknown }[];
}

/** What one instance holds: its profile, and how many of the profile's units (nodes). */
export interface InstanceSize {
  readonly profile: string;
  /**
   * Units of the profile the instance is: 1 for bare metal; for a Kubernetes instance its worker
   * nodes (`H100 Worker Nodes` + `L40 Worker Nodes`), 1 when it names neither.
   */
  readonly units: number;
}

/** The size of an instance from its spec, or undefined when it names no profile (pure). */
export function sizeOf(spec: unknown): InstanceSize | undefined {
  const s = spec as ComputeSpecish | undefined;
  const profile = s?.computeProfile?.name;
  if (typeof profile !== 'string') return undefined;
  if (s?.computeType !== 'k8s') return { profile, units: 1 };
  const values = new Map((s.variables ?? []).map((v) => [v.name, v.value]));
  return { profile, units: nodesOf(values) ?? 1 };
}

/**
 * The size an update starts from (pure): the desired spec with the update's changes to the
 * worker-node variables undone (`/spec/variables/<name>/value` replaced, or the variable added or
 * removed), since the live spec is what the changes were computed against.
 */
export function sizeBefore(desiredSpec: unknown, changes: readonly FieldChange[]) {
  const after = sizeOf(desiredSpec);
  const s = desiredSpec as ComputeSpecish | undefined;
  if (!after || s?.computeType !== 'k8s') return after;
  const values = new Map<unknown, unknown>((s.variables ?? []).map((v) => [v.name, v.value]));
  for (const c of changes) {
    const m = /^\/spec\/variables\/([^/]+)(\/value)?$/.exec(c.path);
    const name = m?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!name || !(WORKER_NODES as readonly string[]).includes(name)) continue;
    if (m?.[2]) values.set(name, c.before);
    else if (c.op === 'add') values.delete(name);
    else values.set(name, (c.before as { value?: unknown } | undefined)?.value);
  }
  return { profile: after.profile, units: nodesOf(values) ?? 1 };
}

/** The worker nodes the variables name, or undefined when they name none (pure). */
function nodesOf(values: ReadonlyMap<unknown, unknown>): number | undefined {
  let total: number | undefined;
  for (const name of WORKER_NODES) {
    const n = Number(values.get(name));
    if (values.has(name) && Number.isFinite(n) && n >= 0) total = (total ?? 0) + n;
  }
  return total;
}

/**
 * GPUs of `units` of a profile (pure): the price file's `gpus` per unit, else the documented
 * default (docs/api-assumptions.md); undefined when neither knows the profile.
 */
export function gpusOfSize(size: InstanceSize, prices?: PriceFile): number | undefined {
  const perUnit = gpusOf(size.profile, prices);
  return perUnit === undefined ? undefined : perUnit * size.units;
}
