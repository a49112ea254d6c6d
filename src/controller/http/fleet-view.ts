import type { LoadedManifest, Manifest } from '../../model/manifest.js';
import type { ScheduledPower } from '../../model/plan.js';
import { gpusOf, type PriceFile } from '../../model/prices.js';
import { desiredPower } from '../../providers/support/scope.js';
import { applySchedules } from '../../reconcile/power-schedules.js';
import type { ResourceCondition } from '../status/conditions.js';
import { intParam } from './control-queries.js';

/** A compute instance as the fleet view shows it: git's power state, GPUs, condition, schedule. */
interface FleetItem {
  readonly key: string;
  readonly project: string;
  readonly workspace: string;
  readonly name: string;
  readonly profile: string;
  /** What git declares (`platctl.io/power-state`, default on). */
  readonly power: 'on' | 'off';
  readonly gpus?: number;
  readonly condition?: ResourceCondition['condition'];
  readonly reason?: string;
  /** The PowerSchedule that selects it, what it wants now and its next transitions. */
  readonly schedule?: InstanceSchedule;
}

/** A scheduled instance's entry of the plan's `schedules`, less its own key. */
export type InstanceSchedule = Omit<ScheduledPower, 'key'>;

/**
 * What each PowerSchedule among `desired` (the revision as written) wants at `now` of the
 * instances it selects, by instance key: the entries a run at `now` puts in its plan's
 * `schedules` (pure; `prices` adds the savings' GPU-hours and cost).
 */
export function schedulesAt(
  desired: readonly Manifest[],
  now: number,
  prices?: PriceFile,
): Map<string, InstanceSchedule> {
  return new Map(applySchedules(desired, now, prices).entries.map(({ key, ...e }) => [key, e]));
}

/** {@link schedulesAt} for the one instance `key`; undefined when no schedule selects it (pure). */
export function scheduleOf(
  loaded: readonly Pick<LoadedManifest, 'key' | 'manifest'>[],
  key: string,
  now: number,
  prices?: PriceFile,
): InstanceSchedule | undefined {
  const mine = loaded.filter((m) => m.key === key || m.manifest.kind === 'PowerSchedule');
  return schedulesAt(
    mine.map((m) => m.manifest),
    now,
    prices,
  ).get(key);
}

/** `GET /api/v1/fleet`: a page of the instances, and the fleet's totals (all pages). */
export interface FleetView {
  readonly total: number;
  readonly on: number;
  readonly off: number;
  /** GPUs of the instances declared on. */
  readonly gpusOn: number;
  readonly items: readonly FleetItem[];
}

interface FleetQuery {
  readonly offset: number;
  readonly limit: number;
  readonly project?: string;
  readonly power?: 'on' | 'off';
}

/** The query of `GET /api/v1/fleet`, or the message of a 400 (pure). */
export function fleetQuery(params: URLSearchParams): FleetQuery | string {
  const offset = intParam(params, 'offset', 0, 1e9);
  const limit = intParam(params, 'limit', 100, 1000);
  if (typeof offset === 'string') return offset;
  if (typeof limit === 'string') return limit;
  const power = params.get('power') || undefined;
  if (power !== undefined && power !== 'on' && power !== 'off') return 'power must be on or off';
  const project = params.get('project') || undefined;
  return { offset, limit, ...(power ? { power } : {}), ...(project ? { project } : {}) };
}

/**
 * The compute instances git declares (the last applied manifests), in key order, with their
 * power state, GPUs (the price file's, else the platform's documented), condition and schedule
 * (`schedules`, by instance key: see {@link schedulesAt}) (pure).
 */
export function fleetView(
  manifests: ReadonlyMap<string, Manifest>,
  conditions: readonly ResourceCondition[],
  prices: PriceFile | undefined,
  query: FleetQuery,
  schedules: ReadonlyMap<string, InstanceSchedule> = new Map(),
): FleetView {
  const conditionOf = new Map(conditions.map((c) => [c.key, c]));
  const all: FleetItem[] = [];
  for (const [key, m] of manifests) {
    if (m.kind !== 'ComputeInstance') continue;
    const profile = m.spec.computeProfile.name;
    const gpus = gpusOf(profile, prices);
    const c = conditionOf.get(key);
    const schedule = schedules.get(key);
    all.push({
      key,
      project: m.metadata.project,
      workspace: m.metadata.workspace,
      name: m.metadata.name,
      profile,
      power: desiredPower(m),
      ...(gpus !== undefined ? { gpus } : {}),
      ...(c ? { condition: c.condition, reason: c.reason } : {}),
      ...(schedule ? { schedule } : {}),
    });
  }
  all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const on = all.filter((i) => i.power === 'on');
  const matched = all.filter(
    (i) =>
      (!query.project || i.project === query.project) && (!query.power || i.power === query.power),
  );
  return {
    total: matched.length,
    on: on.length,
    off: all.length - on.length,
    gpusOn: on.reduce((a, i) => a + (i.gpus ?? 0), 0),
    items: matched.slice(query.offset, query.offset + query.limit),
  };
}
