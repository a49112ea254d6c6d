import { PlatctlError } from '../core/errors.js';
import type { ApiClient } from '../model/api.js';
import { kubeList, listAll } from '../providers/support/list.js';

/** One line of `GET /api/v1/usage`: an instance's hours on one profile in the window. */
export interface UsageItem {
  readonly project: string;
  readonly profile: string;
  readonly instance?: string;
  readonly hours: number;
  readonly gpuHours?: number;
}

/** The window and filter of a usage read; times are ISO 8601 (the platform's defaults otherwise). */
export interface UsageQuery {
  readonly project?: string;
  readonly from?: string;
  readonly to?: string;
}

/** Usage of instances deleted before the dashboard could see which project held them. */
export const UNATTRIBUTED = '(deleted instances)';

interface BillingLine {
  readonly instance_id: string;
  readonly instance_name: string;
  readonly profile_name: string;
  readonly usage: string;
  readonly parameters?: readonly { readonly name: string; readonly usage: string }[];
  /** The vendor's rows name the project (the rafay dialect's `usageRowExtras`). */
  readonly instance_project_name?: string;
}

interface InstanceRef {
  readonly project: string;
  readonly workspace: string;
  readonly name: string;
}

/** `12.34h` → 12.34; anything else is a contract breach, not a zero. */
export function parseHours(usage: string): number {
  const m = /^([0-9]+(?:\.[0-9]+)?)h$/.exec(usage);
  if (!m) throw new PlatctlError('api', `billing usage ${JSON.stringify(usage)} is not "N.NNh"`);
  return Number(m[1]);
}

const COMPUTE_TYPES = ['baremetal', 'k8s'] as const;

const DAY_MS = 86_400_000;

/** How far back usage reads when no start is given (docs/api-assumptions.md, "Billing"). */
export const DEFAULT_USAGE_DAYS = 30;

/**
 * The window a usage query reads: as given, else the last {@link DEFAULT_USAGE_DAYS} days up to
 * the platform's now (its `Date` header, so an emulator whose clock runs ahead, or a machine whose
 * clock is off, reads the platform's days). One read of the projects list (I/O) when a bound is
 * missing.
 */
export async function usageWindow(
  api: ApiClient,
  query: Pick<UsageQuery, 'from' | 'to'>,
): Promise<{ from: string; to: string; defaulted: boolean }> {
  if (query.from !== undefined && query.to !== undefined) {
    return { from: query.from, to: query.to, defaulted: false };
  }
  const res = await api.request({
    method: 'GET',
    path: '/auth/v1/projects/',
    route: '/auth/v1/projects/',
    query: { limit: 1 },
    auth: 'identity',
    operation: "reading the platform's clock",
  });
  const platform = Date.parse(res.headers.date ?? '');
  const nowMs = Number.isNaN(platform) ? Date.now() : platform;
  const to = query.to ?? new Date(nowMs).toISOString();
  const from = query.from ?? new Date(Date.parse(to) - DEFAULT_USAGE_DAYS * DAY_MS).toISOString();
  return { from, to, defaulted: true };
}

/**
 * Reads compute usage from the billing endpoints and attributes each instance's line to its
 * project (HTTP, through the controller's rate-limited client). The billing report names
 * instances by id and name but not by project, so the live instances of every visible project
 * (or of `query.project`) are listed. A billed name with one id that is live in one place needs
 * nothing more; otherwise each live candidate is read for its id (remembered across calls: ids
 * never change). Lines of instances deleted before any such read fall under {@link UNATTRIBUTED}.
 */
export function createUsageReader(api: ApiClient) {
  const projectOfId = new Map<string, string>();

  const listInstances = async (projects: readonly string[]): Promise<InstanceRef[]> => {
    if (api.dialect.instanceList === 'workspace') return listPerWorkspace(api, projects);
    const lists = projects.flatMap((p) =>
      COMPUTE_TYPES.map((computeType) =>
        kubeList<{ metadata: InstanceRef }>(api, {
          path: `/apis/${api.groups.paas}/v1/projects/${encodeURIComponent(p)}/computeinstances`,
          route: '/apis/{paas}/v1/projects/{project}/computeinstances',
          query: { computeType },
          auth: 'paas',
          operation: `listing ${computeType} compute instances of project ${p} for usage`,
        }),
      ),
    );
    return (await Promise.all(lists)).flat().map((i) => i.metadata);
  };

  const idOf = async (ref: InstanceRef): Promise<string | undefined> => {
    const { project: p, workspace: w, name } = ref;
    const res = await api.request<{ metadata?: { id?: string } }>({
      method: 'GET',
      path: `/apis/${api.groups.paas}/v1/projects/${encodeURIComponent(p)}/workspaces/${encodeURIComponent(w)}/computeinstances/${encodeURIComponent(name)}`,
      route: '/apis/{paas}/v1/projects/{project}/workspaces/{workspace}/computeinstances/{name}',
      auth: 'paas',
      accept: [404],
      operation: `reading compute instance ${p}/${w}/${name} for usage`,
    });
    return res.status === 404 ? undefined : res.body.metadata?.id;
  };

  return async (query: UsageQuery): Promise<UsageItem[]> => {
    const { from, to } = await usageWindow(api, query);
    const lines = await listAll<BillingLine>(
      api,
      {
        path: `/apis/${api.groups.billing}/v1/metrics/partner/instance/kind/compute/usage`,
        route: '/apis/{billing}/v1/metrics/partner/instance/kind/compute/usage',
        query: { range_from: from, range_to: to },
        auth: 'billing',
        operation: 'reading compute usage per instance',
      },
      {
        items: (b) => (b as { instance_usage_data?: BillingLine[] } | null)?.instance_usage_data,
        count: (b) => (b as { count?: number } | null)?.count,
      },
    );
    // rows that name their project need no lookup
    for (const line of lines) {
      if (line.instance_project_name) projectOfId.set(line.instance_id, line.instance_project_name);
    }
    const unnamed = lines.filter((l) => !projectOfId.has(l.instance_id));
    const projects =
      unnamed.length === 0
        ? []
        : query.project !== undefined
          ? [query.project]
          : (
              await listAll<{ name: string }>(
                api,
                {
                  path: '/auth/v1/projects/',
                  route: '/auth/v1/projects/',
                  auth: 'identity',
                  operation: 'listing projects for usage',
                },
                {
                  items: (b) => (b as { items?: { name: string }[] } | null)?.items,
                  count: (b) => (b as { count?: number } | null)?.count,
                  key: (p) => p.name,
                  offset: false, // the projects list has no offset in the spec
                },
              )
            ).map((p) => p.name);
    const byName = new Map<string, InstanceRef[]>();
    for (const ref of await listInstances(projects)) {
      byName.set(ref.name, [...(byName.get(ref.name) ?? []), ref]);
    }
    const idsOfName = new Map<string, Set<string>>();
    for (const line of unnamed) {
      idsOfName.set(
        line.instance_name,
        (idsOfName.get(line.instance_name) ?? new Set()).add(line.instance_id),
      );
    }
    for (const [name, ids] of idsOfName) {
      if ([...ids].every((id) => projectOfId.has(id))) continue;
      const candidates = byName.get(name) ?? [];
      if (candidates.length === 1 && ids.size === 1) {
        projectOfId.set([...ids][0]!, candidates[0]!.project);
        continue;
      }
      for (const ref of candidates) {
        const id = await idOf(ref);
        if (id !== undefined) projectOfId.set(id, ref.project);
      }
    }
    const items: UsageItem[] = [];
    for (const line of lines) {
      const project = projectOfId.get(line.instance_id) ?? UNATTRIBUTED;
      if (query.project !== undefined && project !== query.project) continue;
      const gpu = line.parameters?.find((p) => p.name === 'gpu_count');
      items.push({
        project,
        profile: line.profile_name,
        instance: line.instance_name,
        hours: parseHours(line.usage),
        ...(gpu ? { gpuHours: parseHours(gpu.usage) } : {}),
      });
    }
    return items;
  };
}

/** The instances of the projects where the dialect lists them per workspace only (I/O). */
async function listPerWorkspace(
  api: ApiClient,
  projects: readonly string[],
): Promise<InstanceRef[]> {
  const paas = `/apis/${api.groups.paas}/v1/projects`;
  const perProject = projects.map(async (p) => {
    const workspaces = await kubeList<{ metadata: { name: string } }>(api, {
      path: `${paas}/${encodeURIComponent(p)}/workspaces`,
      route: '/apis/{paas}/v1/projects/{project}/workspaces',
      auth: 'paas',
      operation: `listing workspaces of project ${p} for usage`,
    });
    const lists = workspaces.map((w) =>
      kubeList<{ metadata: InstanceRef }>(api, {
        path: `${paas}/${encodeURIComponent(p)}/workspaces/${encodeURIComponent(w.metadata.name)}/computeinstances`,
        route: '/apis/{paas}/v1/projects/{project}/workspaces/{workspace}/computeinstances',
        auth: 'paas',
        operation: `listing compute instances of workspace ${p}/${w.metadata.name} for usage`,
      }),
    );
    return (await Promise.all(lists)).flat().map((i) => i.metadata);
  });
  return (await Promise.all(perProject)).flat();
}
