import { PlatctlError } from '../../core/errors.js';
import type { PathName, PathTable } from '../../model/api.js';

/**
 * The paths the API spec does not show, in one table (docs/api-assumptions.md, "Paths the spec
 * does not show"). A real platform whose paths differ is configured, not forked: a profile's
 * `paths:` in the config file replaces any entry. Templates name the API groups `{infra}`,
 * `{paas}`, `{billing}` and the entry's own parameters in braces; values are URL-encoded.
 */
export const DEFAULT_PATHS = {
  /** GET: the clusters of a project. POST: create or update a cluster. */
  clusters: '/apis/{infra}/v3/projects/{project}/clusters',
  /** GET: one cluster. DELETE: delete it. */
  cluster: '/apis/{infra}/v3/projects/{project}/clusters/{name}',
  /** GET: the VPC services of a project (POST, the create, is the spec's own path). */
  services: '/apis/{paas}/v1/projects/{project}/services',
  /** GET: one VPC service. DELETE: delete it. */
  service: '/apis/{paas}/v1/projects/{project}/services/{name}',
  /** POST: enable a blueprint version. */
  blueprintEnable: '/v2/config/project/{projectId}/blueprint/{blueprint}/version/{version}/enable',
  /** POST: disable a blueprint version. */
  blueprintDisable:
    '/v2/config/project/{projectId}/blueprint/{blueprint}/version/{version}/disable',
} as const satisfies PathTable;

const GROUPS = ['infra', 'paas', 'billing'];
const placeholders = (template: string): string[] =>
  [...template.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);

/**
 * The table with `overrides` applied (pure). Throws a `config` error naming the entry for an
 * unknown name, a template that does not start with `/`, or one whose parameters are not exactly
 * the default's (the API groups may be written out instead of named).
 */
export function pathTable(overrides: Readonly<Record<string, unknown>> = {}): PathTable {
  const table: Record<string, string> = { ...DEFAULT_PATHS };
  for (const [name, template] of Object.entries(overrides)) {
    if (!(name in DEFAULT_PATHS)) {
      const known = Object.keys(DEFAULT_PATHS).join(', ');
      throw new PlatctlError('config', `paths.${name}: unknown path (known: ${known})`);
    }
    if (typeof template !== 'string' || !template.startsWith('/')) {
      throw new PlatctlError('config', `paths.${name}: must be a path starting with /`);
    }
    const wanted = placeholders(DEFAULT_PATHS[name as PathName]).filter((p) => !GROUPS.includes(p));
    const given = placeholders(template).filter((p) => !GROUPS.includes(p));
    if (wanted.slice().sort().join() !== given.slice().sort().join()) {
      throw new PlatctlError(
        'config',
        `paths.${name}: must use exactly ${wanted.map((p) => `{${p}}`).join(', ')}, not ${given.map((p) => `{${p}}`).join(', ') || 'none'}`,
      );
    }
    table[name] = template;
  }
  return table as PathTable;
}

/**
 * Fills a template: groups from `groups`, every other `{param}` from `params`, URL-encoded. Pure.
 * A parameter the template names but `params` lacks is a bug, so it throws.
 */
function fillPath(
  template: string,
  groups: Readonly<Record<string, string>>,
  params: Readonly<Record<string, string>>,
): string {
  return template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    if (GROUPS.includes(name)) return groups[name]!;
    const value = params[name];
    if (value === undefined) throw new Error(`path ${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

/**
 * `{path, route}` of a table entry for a request of `api`: the filled path, and the template as
 * the route its metrics are counted under. Pure.
 */
export function tablePath(
  api: { readonly groups: Readonly<Record<string, string>>; readonly paths: PathTable },
  name: PathName,
  params: Readonly<Record<string, string>>,
): { path: string; route: string } {
  const template = api.paths[name];
  return { path: fillPath(template, api.groups, params), route: template };
}
