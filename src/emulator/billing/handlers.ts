import { ApiError, type EmuContext, type EmuRequest, type HandlerMap } from '../http/types.js';
import type { OrgRecord, ProfileRecord } from '../lookups.js';
import { createdAtIso } from '../paas/common.js';
import { findInstance } from '../paas/compute-store.js';
import {
  type InstanceSeconds,
  instanceSeconds,
  instanceUsageData,
  profileUsageData,
  type ReportWindow,
  type RowNames,
} from './report.js';
import { allSegments } from './segments.js';

/** The emulator's partner id when no organization narrows the report. */
const PARTNER_ID = 'partner-emulator';

function parseTime(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new ApiError(400, 'invalid_request', `${field} is not an ISO 8601 timestamp`, [
      { field, message: 'must be an ISO 8601 UTC timestamp' },
    ]);
  }
  return ms;
}

function startOfUtcMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/**
 * The report window of a request: `range_to` defaults to now, `range_from` to the start of the
 * UTC month of `range_to` (the current month by default, and never after an explicit `range_to`);
 * 400 naming the field for a bad timestamp or `range_from` after `range_to`.
 */
function reportWindow(req: EmuRequest, ctx: EmuContext): ReportWindow {
  const nowMs = ctx.clock.now();
  const toMs = parseTime(req.query.range_to, 'range_to') ?? nowMs;
  const fromMs = parseTime(req.query.range_from, 'range_from') ?? startOfUtcMonth(toMs);
  if (fromMs > toMs) {
    throw new ApiError(400, 'invalid_request', 'range_from is after range_to', [
      { field: 'range_from', message: 'must not be after range_to' },
    ]);
  }
  const org = req.query.instance_organization_id;
  return { fromMs, toMs, nowMs, ...(typeof org === 'string' && { organizationId: org }) };
}

/** Builds one report: the envelope of the spec around one page of `data` under `dataKey`. */
function report(
  dataKey: 'instance_usage_data' | 'profile_usage_data',
  build: (rows: InstanceSeconds[], profiles: Profiles, names?: RowNames) => unknown[],
) {
  return (req: EmuRequest, ctx: EmuContext) => {
    const window = reportWindow(req, ctx);
    const limit = typeof req.query.limit === 'number' ? req.query.limit : 100;
    const offset = typeof req.query.offset === 'number' ? req.query.offset : 0;
    const profiles = (name: string) => ctx.store.get<ProfileRecord>('profiles', name);
    const names = ctx.config.dialect.usageRowExtras ? rowNames(ctx) : undefined;
    const data = build(instanceSeconds(allSegments(ctx), window), profiles, names);
    const org = window.organizationId;
    const partner =
      org === undefined ? undefined : ctx.store.get<OrgRecord>('orgs', org)?.partnerId;
    return {
      status: 200,
      body: {
        kind: 'compute',
        partner_id: partner ?? PARTNER_ID,
        organization_id: org ?? null,
        start_time: new Date(window.fromMs).toISOString(),
        end_time: new Date(window.toMs).toISOString(),
        [dataKey]: data.slice(offset, offset + limit),
        count: data.length,
        offset,
        limit,
      },
    };
  };
}

type Profiles = (name: string) => ProfileRecord | undefined;

/** The names and times a dialect's rows carry, read from the store. */
function rowNames(ctx: EmuContext): RowNames {
  return {
    organizationName: (id) => ctx.store.get<OrgRecord>('orgs', id)?.name,
    instanceCreatedAt: (r) => {
      const found = findInstance(ctx, r.project, r.workspace, r.instanceName);
      return found?.id === r.instanceId ? createdAtIso(found) : undefined;
    },
  };
}

/**
 * The billing operations keyed by the operationIds of `api/fragments/billing.yaml`: usage per
 * compute instance and per compute profile, over a window, for one organization or all.
 */
export const billingHandlers: HandlerMap = {
  getInstanceUsage: report('instance_usage_data', instanceUsageData),
  getProfileUsage: report('profile_usage_data', profileUsageData),
};
