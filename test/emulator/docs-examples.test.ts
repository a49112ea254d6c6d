import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, defaultDialect } from '../../src/core/dialect.js';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';

// "Try it out" on /docs as shipped: every operation's example request (its path and query
// parameters' examples, its body's example), sent as the docs page sends it (the key in every
// header of the dialect) to a running emulator, must succeed. The operations run in an order
// that sets up what the next needs (project → service → workspace → instance, cluster →
// blueprint; deletes last), and the platform is left an hour to settle after each, as a person
// trying them would wait.
// The page is the one of PLATCTL_DIALECT's dialect (docs/dialects.md: its Overlay adds and drops
// operations), so this suite runs on both (DIALECT_SUITES).
const KEY = 'docs-examples-key-0042';
const dialect = DIALECTS[defaultDialect()];

/** Every operation of the spec's document, in the order a newcomer would try them. */
const SPEC_ORDER = [
  'listProjects',
  'listUsers',
  'createUser',
  'addUserToGroups',
  'removeUserFromGroups',
  'assignUserToProject',
  'unassignUserFromProject',
  'createService',
  'listServices',
  'getService',
  'publishService',
  'upsertWorkspace',
  'listWorkspaces',
  'getWorkspace',
  'upsertComputeInstance',
  'listComputeInstances',
  'getComputeInstance',
  'publishComputeInstance',
  'powerComputeInstance',
  'createCluster',
  'listClusters',
  'getCluster',
  'updateControllerDeployment',
  'forceSyncBlueprint',
  'enableBlueprintVersion',
  'disableBlueprintVersion',
  'getInstanceUsage',
  'getProfileUsage',
  'deleteCluster',
  'deleteComputeInstance',
  'deleteWorkspace',
  'deleteService',
  'deleteUser',
];

/**
 * The operations of the dialect's document in that order: the profile reads (where it has them)
 * before the first create, instances listed per workspace where they are only listed so, the
 * cluster's status read (where it has one) after the cluster's read.
 */
const ORDER = SPEC_ORDER.flatMap((id) => {
  if (id === 'createService' && dialect.profileReads)
    return ['listComputeProfiles', 'getComputeProfile', 'listServiceProfiles', id];
  if (id === 'listComputeInstances' && dialect.instanceList === 'workspace')
    return ['listWorkspaceComputeInstances'];
  if (id === 'getCluster' && dialect.clusterStatus === 'commonStatus')
    return [id, 'getClusterStatus'];
  return [id];
});

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
}
interface Doc {
  paths: Record<string, Record<string, unknown>>;
  components: { parameters: Record<string, Parameter> };
}
interface Example {
  method: string;
  path: string;
  body?: unknown;
  /** What the document lacks for this operation to be tried as shipped. */
  missing: string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Each operation's example request, from the document the docs page loads. Pure. */
function examples(doc: Doc): Map<string, Example> {
  const out = new Map<string, Example>();
  const resolve = (p: Parameter) =>
    p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p;
  for (const [template, item] of Object.entries(doc.paths)) {
    const shared = ((item.parameters as Parameter[] | undefined) ?? []).map(resolve);
    for (const method of METHODS.filter((m) => m in item)) {
      const op = item[method] as Operation;
      const params = [...shared, ...(op.parameters ?? []).map(resolve)];
      const missing: string[] = [];
      let path = template;
      const query = new URLSearchParams();
      for (const p of params) {
        if (p.example === undefined) {
          if (p.in === 'path' || p.required) missing.push(`parameter ${p.name}`);
          continue;
        }
        if (p.in === 'path')
          path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
        else if (p.in === 'query') query.set(p.name, String(p.example));
      }
      const media = op.requestBody?.content['application/json'];
      if (op.requestBody && media?.example === undefined) missing.push('request body');
      const search = query.size > 0 ? `?${query}` : '';
      out.set(op.operationId, {
        method: method.toUpperCase(),
        path: path + search,
        missing,
        ...(media?.example !== undefined ? { body: media.example } : {}),
      });
    }
  }
  return out;
}

/** Sends every example in ORDER to the emulator at `url`, letting an hour pass after each. */
async function tryInOrder(url: string): Promise<void> {
  const doc = (await (await fetch(`${url}/docs/openapi.json`)).json()) as Doc;
  const all = examples(doc);
  for (const id of ORDER) {
    const e = all.get(id)!;
    const res = await fetch(`${url}${e.path}`, {
      method: e.method,
      headers: {
        ...Object.fromEntries(Object.values(dialect.authHeader).map((h) => [h.toLowerCase(), KEY])),
        ...(e.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(e.body !== undefined ? { body: JSON.stringify(e.body) } : {}),
    });
    const text = await res.text();
    expect(res.status, `${id}: ${e.method} ${e.path} → ${res.status} ${text}`).toBeLessThan(300);
    expect(res.status, id).toBeGreaterThanOrEqual(200);
    const settled = await emulatorControl(url, 'POST', '/_emulator/clock/advance', {
      seconds: 3600,
    });
    expect(settled.status).toBe(200);
  }
}

let emulator: RunningEmulator;
let doc: Doc;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: KEY, admin: true, dialect: dialect.name });
  doc = (await (await fetch(`${emulator.url}/docs/openapi.json`)).json()) as Doc;
});
afterAll(() => emulator?.close());

describe('the examples of /docs, tried as shipped', () => {
  it('names every operation of the document once in the order below', () => {
    expect([...examples(doc).keys()].sort()).toEqual([...ORDER].sort());
  });

  it('gives every operation a path, query and body example', () => {
    const lacking = [...examples(doc)]
      .filter(([, e]) => e.missing.length > 0)
      .map(([id, e]) => `${id}: ${e.missing.join(', ')}`);
    expect(lacking).toEqual([]);
  });

  it('answers every example request with a 2xx, in order', async () => {
    await tryInOrder(emulator.url);
  });

  it('does so under other API groups too (the examples name the served group)', async () => {
    const other = await startEmulator({
      port: 0,
      apiKey: KEY,
      admin: true,
      dialect: dialect.name,
      groups: { infra: 'infra.example.io', paas: 'paas.example.io', billing: 'billing.example.io' },
    });
    try {
      await tryInOrder(other.url);
    } finally {
      await other.close();
    }
  });
});
