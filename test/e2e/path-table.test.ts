import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { resolveConnection } from '../../src/providers/client/connection.js';
import { DEFAULT_PATHS, pathTable } from '../../src/providers/client/paths.js';
import { createRunPorts } from '../../src/reconcile/default-ports.js';
import { reconcile } from '../../src/reconcile/run.js';
import { EXAMPLES, FAST } from './harness.js';

/**
 * The paths the spec does not show come from one table a profile can override (issue 15). A
 * platform whose paths differ is played by a loopback proxy in front of the emulator that serves
 * them under other paths; the engine, configured through a profile, applies the examples there.
 */
const CUSTOM = {
  clusters: '/k8s/{project}/clusters',
  cluster: '/k8s/{project}/clusters/{name}',
  services: '/vpc/{project}/all',
  service: '/vpc/{project}/one/{name}',
  blueprintEnable: '/bp/{projectId}/{blueprint}/{version}/on',
  blueprintDisable: '/bp/{projectId}/{blueprint}/{version}/off',
};
const REWRITES: [RegExp, string][] = [
  [/^\/k8s\/([^/]+)\/clusters/, '/apis/infra.k8smgmt.io/v3/projects/$1/clusters'],
  [/^\/vpc\/([^/]+)\/all/, '/apis/paas.envmgmt.io/v1/projects/$1/services'],
  [/^\/vpc\/([^/]+)\/one\//, '/apis/paas.envmgmt.io/v1/projects/$1/services/'],
  [/^\/bp\/([^/]+)\/([^/]+)\/([^/]+)\/on/, '/v2/config/project/$1/blueprint/$2/version/$3/enable'],
  [
    /^\/bp\/([^/]+)\/([^/]+)\/([^/]+)\/off/,
    '/v2/config/project/$1/blueprint/$2/version/$3/disable',
  ],
];

let emu: RunningEmulator;
let proxy: Server;
let proxyUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  emu = await startEmulator({
    apiKey: 'path-table-key-0001',
    admin: true,
    transitionSeconds: FAST,
  });
  const target = new URL(emu.url);
  proxy = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    seen.push(`${req.method} ${url.pathname}`);
    let path = url.pathname;
    for (const [from, to] of REWRITES) path = path.replace(from, to);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: path + url.search,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await emu.close();
});

describe('the path table', () => {
  it('takes a profile’s paths from the config file, and refuses a bad entry naming it', async () => {
    const config = (paths: string) =>
      `profiles:\n  acme:\n    baseUrl: ${proxyUrl}\n    apiKeyFrom: { env: K }\n    paths:\n${paths}`;
    const read = (text: string) => async () => text;
    const c = await resolveConnection({
      env: { K: 'path-table-key-0001' },
      flags: { profile: 'acme', config: '/c.yaml' },
      readFile: read(config(`      cluster: ${CUSTOM.cluster}\n`)),
    });
    expect(c.paths).toEqual({ cluster: CUSTOM.cluster });
    const bad = (paths: string) =>
      resolveConnection({
        env: { K: 'k' },
        flags: { profile: 'acme', config: '/c.yaml' },
        readFile: read(config(paths)),
      }).catch((e: Error) => e.message);
    expect(await bad('      clusterz: /x/{project}\n')).toContain('paths.clusterz: unknown path');
    expect(await bad('      cluster: /k8s/{project}/clusters\n')).toContain(
      'paths.cluster: must use exactly {project}, {name}',
    );
    expect(pathTable({}).cluster).toBe(DEFAULT_PATHS.cluster);
  });

  it('sends every request of a path the spec does not show to the profile’s path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platctl-paths-'));
    cpSync(EXAMPLES, join(dir, 'm'), { recursive: true });
    const password = `Pw-${randomBytes(8).toString('hex')}`;
    const run = async () => {
      const ports = createRunPorts({
        baseUrl: proxyUrl,
        apiKey: 'path-table-key-0001',
        paths: CUSTOM,
        statePath: join(dir, 'state.db'),
        env: { PLATCTL_DEMO_PASSWORD: password },
        wait: { pollMs: 25, timeoutMs: 20_000 },
        client: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 8 },
      });
      try {
        return await reconcile({ paths: [join(dir, 'm')], mode: 'apply' }, ports);
      } finally {
        await ports.close();
      }
    };
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const r = await run();
        statuses.push(r.status);
        if (r.status === 'in-sync') break;
      }
      expect(statuses.at(-1)).toBe('in-sync');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const custom = (prefix: string) => seen.filter((s) => s.split(' ')[1]!.startsWith(prefix));
    expect(custom('/k8s/').some((s) => s.startsWith('POST /k8s/platform/clusters'))).toBe(true);
    expect(custom('/k8s/').some((s) => s.startsWith('GET /k8s/platform/clusters'))).toBe(true);
    expect(custom('/vpc/').some((s) => /^GET \/vpc\/[^/]+\/all$/.test(s))).toBe(true);
    expect(custom('/bp/').some((s) => s.startsWith('POST /bp/'))).toBe(true);
    // nothing went to the default form of a path in the table
    const defaults = seen.filter((s) =>
      /\/clusters(\/[^/]+)?$|\/services\/[^/]+$|\/version\/[^/]+\/(enable|disable)$/.test(s),
    );
    expect(defaults.filter((s) => !s.includes('/k8s/'))).toEqual([]);
    // the spec's own paths are unchanged: service create and controller updates
    expect(
      seen.some((s) => /^POST \/apis\/paas\.envmgmt\.io\/v1\/projects\/[^/]+\/services$/.test(s)),
    ).toBe(true);
  });
});
