import { openSegment } from '../billing/segments.js';
import type { EmuContext } from '../http/types.js';
import { transitionDone, transitionEnd } from '../shared/transitions.js';
import type { Described, Stamped } from './common.js';
import { createdAtIso, inCreationOrder, notFound } from './common.js';

/** A compute variable as sent (valueType omitted in Kubernetes bodies). */
interface ComputeVariable {
  readonly name: string;
  readonly value: string;
  readonly valueType?: 'text' | 'json';
}

/** `spec` of a compute instance as validated by the fragment and stored verbatim. */
export interface ComputeSpec {
  readonly computeType: 'baremetal' | 'k8s';
  readonly computeProfile: { readonly name: string; readonly systemCatalog?: boolean };
  readonly variables?: readonly ComputeVariable[];
}

/** What a compute instance reports in `status.status`. */
export type ComputeStatus =
  | 'created'
  | 'updated'
  | 'provisioning'
  | 'success'
  | 'failed'
  | 'deleting';

/**
 * A compute instance as stored: collection `computeinstances`, key `<project>/<workspace>/<name>`.
 * `provisioning` and `deleting` resolve lazily on the emulator clock (see {@link computeStatus}).
 * No password is ever stored: the read output's password is a constant mask.
 */
export interface InstanceRecord extends Stamped, Described {
  readonly id: string;
  readonly project: string;
  readonly workspace: string;
  readonly organizationId: string;
  readonly spec: ComputeSpec;
  readonly phase: 'created' | 'updated' | 'provisioning' | 'failed' | 'deleting';
  readonly provisionStartedAtMs?: number;
  readonly deleteRequestedAtMs?: number;
  /** Meaningful once `success`; set to `on` by every publish. */
  readonly powerState: 'on' | 'off';
  /** Set by every publish: derived from the id (private) and `assign_public_ip` (public). */
  readonly privateIp?: string;
  readonly publicIp?: string;
}

const COLLECTION = 'computeinstances';

/** Store key of an instance. */
const instanceKey = (project: string, workspace: string, name: string): string =>
  `${project}/${workspace}/${name}`;

/** When a provisioning instance reaches `success` (epoch ms). */
export function successAtMs(ctx: EmuContext, r: InstanceRecord): number {
  return transitionEnd(ctx, r.provisionStartedAtMs ?? 0, 'compute-provision');
}

/** The instance's status now, or `gone` once its deletion has completed. */
export function computeStatus(ctx: EmuContext, r: InstanceRecord): ComputeStatus | 'gone' {
  const now = ctx.clock.now();
  if (r.phase === 'deleting') {
    return transitionDone(ctx, r.deleteRequestedAtMs ?? 0, 'compute-delete') ? 'gone' : 'deleting';
  }
  if (r.phase === 'provisioning') return now >= successAtMs(ctx, r) ? 'success' : 'provisioning';
  return r.phase;
}

/** Drops instances whose deletion has completed; returns the rest. Writes to the store. */
function withoutGone(ctx: EmuContext, records: readonly InstanceRecord[]): InstanceRecord[] {
  return records.filter((r) => {
    // only a deleting instance can be gone: the rest cost no clock read (lists pass thousands)
    if (r.phase !== 'deleting' || computeStatus(ctx, r) !== 'gone') return true;
    ctx.store.delete(COLLECTION, instanceKey(r.project, r.workspace, r.name));
    return false;
  });
}

/** The instance if it exists (and is not gone), else undefined. */
export function findInstance(
  ctx: EmuContext,
  project: string,
  workspace: string,
  name: string,
): InstanceRecord | undefined {
  const r = ctx.store.get<InstanceRecord>(COLLECTION, instanceKey(project, workspace, name));
  return r ? withoutGone(ctx, [r])[0] : undefined;
}

/** The instance or a 404. */
export function loadInstance(
  ctx: EmuContext,
  project: string,
  workspace: string,
  name: string,
): InstanceRecord {
  const r = findInstance(ctx, project, workspace, name);
  if (!r) throw notFound(`compute instance ${name} in workspace ${workspace}`);
  return r;
}

/**
 * The instances of a project of one `computeType` that still exist, oldest first (read-only).
 * Between writes the store hands out the same ordered array, so the split by type is kept per
 * array: a list of a page of 10,000 instances filters nothing again until something is written
 * (or while some instance is being deleted, whose end depends on the clock).
 */
export function liveInstancesOfType(
  ctx: EmuContext,
  project: string,
  computeType: string,
): readonly InstanceRecord[] {
  const all = inCreationOrder<InstanceRecord>(ctx, COLLECTION, `${project}/`);
  let split = byTypeOf.get(all);
  if (!split) {
    split = { deleting: all.some((r) => r.phase === 'deleting'), byType: new Map() };
    for (const r of all) {
      const list = split.byType.get(r.spec.computeType) ?? [];
      list.push(r);
      split.byType.set(r.spec.computeType, list);
    }
    byTypeOf.set(all, split);
  }
  if (split.deleting) return withoutGone(ctx, split.byType.get(computeType) ?? []);
  return split.byType.get(computeType) ?? [];
}

const byTypeOf = new WeakMap<
  readonly InstanceRecord[],
  { deleting: boolean; byType: Map<string, InstanceRecord[]> }
>();

/** The instances of one workspace that still exist (including those being deleted). */
export function liveInstancesIn(
  ctx: EmuContext,
  project: string,
  workspace: string,
): InstanceRecord[] {
  return withoutGone(ctx, ctx.store.list<InstanceRecord>(COLLECTION, `${project}/${workspace}/`));
}

/** Overwrites a stored instance. */
export function saveInstance(ctx: EmuContext, r: InstanceRecord): void {
  ctx.store.put(COLLECTION, instanceKey(r.project, r.workspace, r.name), r);
}

/** Opens `r`'s next billing stretch, from `fromMs` (a publish: when provisioning ends; a power on: now). */
export function openBilling(ctx: EmuContext, r: InstanceRecord, fromMs: number): void {
  openSegment(ctx, {
    instanceId: r.id,
    instanceName: r.name,
    project: r.project,
    workspace: r.workspace,
    organizationId: r.organizationId,
    profile: r.spec.computeProfile.name,
    fromMs,
    createdAt: createdAtIso(r),
  });
}
