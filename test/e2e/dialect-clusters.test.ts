import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, defaultDialect } from '../../src/core/dialect.js';
import { keyHeaders } from '../helpers/key-header.js';
import { manifestDir, type World, world } from './harness.js';

// Clusters on the platform of the run's dialect (PLATCTL_DIALECT; CI runs both): versions kept as
// written and sent as the dialect types them, labels carried, a cluster someone else created
// first never counted as platctl's, and values only another dialect has refused at their line.
const dialect = DIALECTS[defaultDialect()];
const INFRA = '/apis/infra.k8smgmt.io/v3/projects/platform/clusters';

const cluster = (name: string, extra = '') => `apiVersion: infra.k8smgmt.io/v3
kind: Cluster
metadata:
  name: ${name}
  project: platform
  labels: { team: ml }
spec:
  type: Gke
  cloudCredentials: gcp-credentials
  blueprint: { name: ml-stack, version: v1.0.0 }
  config:
    project: acme-gcp
    location: { type: zonal, zone: us-central1-a }
    controlPlaneVersion: 1.30
    nodePools:
      - name: pool
        size: 1
        nodeVersion: "1.30"${extra}
`;

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(() => w.close());

async function liveCluster(name: string) {
  const res = await fetch(`${w.emulator.url}${INFRA}/${name}`, { headers: keyHeaders(w.apiKey) });
  return (await res.json()) as {
    metadata: { labels?: Record<string, string> };
    spec: { config: { controlPlaneVersion: unknown; nodePools: { nodeVersion: unknown }[] } };
  };
}

describe(`clusters on the ${dialect.name} dialect`, () => {
  it('sends 1.30 as written, keeps labels, and plans no change after the apply', async () => {
    const dir = manifestDir(w, 'c', { 'c.yaml': cluster('c130') });
    const applied = await w.run({ mode: 'apply', paths: [dir] });
    expect(applied.status, JSON.stringify(applied.diagnostics)).toBe('applied');
    const live = await liveCluster('c130');
    const want = dialect.versionType === 'string' ? '1.30' : 1.3;
    expect(live.spec.config.controlPlaneVersion).toBe(want);
    expect(live.spec.config.nodePools[0]!.nodeVersion).toBe(want);
    expect(live.metadata.labels).toEqual({ team: 'ml' });
    const again = await w.run({ mode: 'plan', paths: [dir] });
    expect(again.changes).toBe(false);
    // a label changed on the platform is drift, worded from the platform's side
    const body = {
      ...(await liveCluster('c130')),
      apiVersion: 'infra.k8smgmt.io/v3',
      kind: 'Cluster',
    };
    body.metadata.labels = { team: 'other' };
    const { status: _s, ...sent } = body as typeof body & { status?: unknown };
    await fetch(`${w.emulator.url}${INFRA}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...keyHeaders(w.apiKey) },
      body: JSON.stringify(sent),
    });
    const drift = await w.run({ mode: 'plan', paths: [dir] });
    expect(drift.plan?.actions.find((a) => a.type === 'update')?.key).toBe('Cluster/platform/c130');
  }, 60_000);

  it("never counts a cluster someone created first as platctl's, whatever the create answers", async () => {
    const dir = manifestDir(w, 'c', { 'c.yaml': cluster('theirs') });
    // the person's create lands between platctl's plan and its apply
    const plan = await w.run({ mode: 'plan', paths: [dir] });
    expect(plan.plan?.actions.map((a) => a.type)).toContain('create');
    const person = JSON.parse(
      JSON.stringify({
        apiVersion: 'infra.k8smgmt.io/v3',
        kind: 'Cluster',
        metadata: { name: 'theirs', project: 'platform' },
        spec: {
          type: 'Gke',
          cloudCredentials: 'gcp-credentials',
          blueprint: { name: 'ml-stack', version: 'v1.0.0' },
          config: {
            project: 'acme-gcp',
            location: { type: 'zonal', zone: 'us-central1-a' },
            nodePools: [{ name: 'pool', size: 1 }],
          },
        },
      }),
    );
    const made = await fetch(`${w.emulator.url}${INFRA}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...keyHeaders(w.apiKey) },
      body: JSON.stringify(person),
    });
    expect(made.status).toBeLessThan(300);
    await w.run({ mode: 'apply', paths: [dir] });
    // removed from git and pruned: theirs stays
    const empty = manifestDir(w, 'empty', { 'x.yaml': cluster('mine') });
    const pruned = await w.run({ mode: 'apply', paths: [empty], prune: true });
    expect(pruned.plan?.actions.filter((a) => a.type === 'delete').map((a) => a.key)).toEqual([]);
    const still = await fetch(`${w.emulator.url}${INFRA}/theirs`, {
      headers: keyHeaders(w.apiKey),
    });
    expect(still.status).toBe(200);
    // and one platctl created is pruned
    const gone = await w.run({
      mode: 'apply',
      paths: [manifestDir(w, 'none', { 'y.yaml': cluster('other') })],
      prune: true,
    });
    expect(gone.plan?.actions.filter((a) => a.type === 'delete').map((a) => a.key)).toEqual([
      'Cluster/platform/mine',
    ]);
  }, 90_000);

  it('refuses a value only another dialect has, at its line, before sending anything', async () => {
    // the vendor's values: the spec's platform refuses them, the vendor's takes them
    const foreign = dialect.name === 'spec' ? 'SURGE' : 'BLUE_GREEN';
    const text = cluster('odd', `\n        upgradeSettings: { strategy: ${foreign} }`).replace(
      'type: Gke',
      dialect.name === 'spec' ? 'type: gke' : 'type: Gke',
    );
    const dir = manifestDir(w, 'c', { 'c.yaml': text });
    const before = await w.last();
    const r = await w.run({ mode: 'apply', paths: [dir] });
    if (dialect.name === 'spec') {
      expect(r.status).toBe('blocked');
      const errors = r.plan?.diagnostics.filter((d) => d.severity === 'error') ?? [];
      expect(errors.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual([
        '8:9 gke is not accepted; use Gke (dialect spec)',
        '19:38 SURGE is not accepted; use BLUE_GREEN (dialect spec)',
      ]);
      expect((await w.journal(before)).filter((e) => e.method !== 'GET')).toEqual([]);
    } else {
      expect(r.status).toBe('applied');
    }
  }, 60_000);
});
