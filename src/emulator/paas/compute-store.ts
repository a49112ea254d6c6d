import type { EmuContext } from '../http/types.js';
import { transitionDone, transitionEnd } from '../shared/transitions.js';
import type { Described, Stamped } from './common.js';
import { inCreationOrder, notFound } from './common.js';

/** A compute variable as sent (valueType omitted in Kubernetes bodies). */
export interface ComputeVariable {
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
export const instanceKey = (project: string, workspace: string, name: string): string =>
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
function withoutGone(ctx: EmuContext, records: InstanceRecord[]): InstanceRecord[] {
  return records.filter((r) => {
    if (computeStatus(ctx, r) !== 'gone') return true;
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

/** The instances of a project that still exist, oldest first. */
export function liveInstances(ctx: EmuContext, project: string): InstanceRecord[] {
  return withoutGone(ctx, [...inCreationOrder<InstanceRecord>(ctx, COLLECTION, `${project}/`)]);
}

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
