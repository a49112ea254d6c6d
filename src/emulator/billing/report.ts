import type { ProfileRecord } from '../lookups.js';
import type { UsageSegment } from './segments.js';
import { overlapSeconds, usageParameters, usageString } from './usage-math.js';

/** The window a report covers, and the clock's now (open segments run to it). Epoch ms. */
export interface ReportWindow {
  readonly fromMs: number;
  readonly toMs: number;
  readonly nowMs: number;
  /** Only this organization's instances, when set. */
  readonly organizationId?: string;
}

/** Seconds of billed lifetime of one instance on one profile within a window. */
export interface InstanceSeconds {
  readonly organizationId: string;
  readonly profile: string;
  readonly instanceId: string;
  readonly instanceName: string;
  readonly project: string;
  readonly workspace: string;
  readonly seconds: number;
  /** Where the billed time inside the window starts and ends (epoch ms). */
  readonly firstMs: number;
  readonly lastMs: number;
  /** The instance's creation time its segments kept (ISO), if they did. */
  readonly createdAt?: string;
}

/**
 * Sums the segments of each (instance, profile) inside the window; instances with no billed time
 * in it are left out. Ordered by organization, then instance name, then id. Pure.
 */
export function instanceSeconds(
  segments: readonly UsageSegment[],
  window: ReportWindow,
): InstanceSeconds[] {
  const byKey = new Map<string, InstanceSeconds>();
  for (const s of segments) {
    if (window.organizationId !== undefined && s.organizationId !== window.organizationId) continue;
    const end = s.toMs ?? window.nowMs;
    const seconds = overlapSeconds(
      s.fromMs,
      end,
      window.fromMs,
      Math.min(window.toMs, window.nowMs),
    );
    if (seconds === 0) continue;
    const key = `${s.instanceId}\u0000${s.profile}`;
    const prev = byKey.get(key);
    const first = Math.max(s.fromMs, window.fromMs);
    const last = Math.min(end, window.toMs, window.nowMs);
    byKey.set(key, {
      organizationId: s.organizationId,
      profile: s.profile,
      instanceId: s.instanceId,
      instanceName: s.instanceName,
      project: s.project,
      workspace: s.workspace,
      seconds: (prev?.seconds ?? 0) + seconds,
      firstMs: Math.min(prev?.firstMs ?? first, first),
      lastMs: Math.max(prev?.lastMs ?? last, last),
      ...((prev?.createdAt ?? s.createdAt) !== undefined && {
        createdAt: prev?.createdAt ?? s.createdAt,
      }),
    });
  }
  return [...byKey.values()].sort(
    (a, b) =>
      a.organizationId.localeCompare(b.organizationId) ||
      a.instanceName.localeCompare(b.instanceName) ||
      a.instanceId.localeCompare(b.instanceId),
  );
}

type Profiles = (name: string) => ProfileRecord | undefined;

function profileFields(profiles: Profiles, name: string, seconds: number) {
  const p = profiles(name);
  return {
    profile_id: name,
    profile_name: name,
    usage: usageString(1, seconds),
    // a profile removed from the seed since leaves its usage without parameters
    parameters: p ? usageParameters(p.hardware, p.region, seconds) : [],
  };
}

/** What a dialect whose rows carry names and times adds to an instance's row (`usageRowExtras`). */
export interface RowNames {
  organizationName(id: string): string | undefined;
  /**
   * The instance's creation time (ISO) when its segments did not keep it (stored before they
   * did): read from the instance, so known only while it exists.
   */
  instanceCreatedAt(row: InstanceSeconds): string | undefined;
}

/** `instance_usage_data[]` entries, one per (instance, profile). Pure apart from `names`. */
export function instanceUsageData(
  rows: readonly InstanceSeconds[],
  profiles: Profiles,
  names?: RowNames,
) {
  return rows.map((r) => {
    const { parameters, usage, ...profile } = profileFields(profiles, r.profile, r.seconds);
    return {
      instance_organization_id: r.organizationId,
      ...profile,
      instance_id: r.instanceId,
      instance_name: r.instanceName,
      usage,
      parameters,
      ...(names ? rowExtras(r, names) : {}),
    };
  });
}

function rowExtras(r: InstanceSeconds, names: RowNames) {
  const createdAt = r.createdAt ?? names.instanceCreatedAt(r);
  return {
    instance_project_name: r.project,
    instance_organization_name: names.organizationName(r.organizationId) ?? null,
    ...(createdAt ? { created_at: createdAt } : {}),
    raw_usage: Math.round((r.seconds / 3600) * 1e6) / 1e6,
    start_time: new Date(r.firstMs).toISOString(),
    end_time: new Date(r.lastMs).toISOString(),
  };
}

/**
 * `profile_usage_data[]` entries, one per (organization, profile): the seconds of its instances
 * added up, so each parameter is quantity × total hours. Ordered by organization, then profile. Pure.
 */
export function profileUsageData(rows: readonly InstanceSeconds[], profiles: Profiles) {
  const totals = new Map<string, { organizationId: string; profile: string; seconds: number }>();
  for (const r of rows) {
    const key = `${r.organizationId}\u0000${r.profile}`;
    const prev = totals.get(key);
    totals.set(key, { ...r, seconds: (prev?.seconds ?? 0) + r.seconds });
  }
  return [...totals.values()]
    .sort(
      (a, b) =>
        a.organizationId.localeCompare(b.organizationId) || a.profile.localeCompare(b.profile),
    )
    .map((t) => ({
      instance_organization_id: t.organizationId,
      ...profileFields(profiles, t.profile, t.seconds),
    }));
}
