import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { DEFAULT_SEED } from '../../src/emulator/seed/default-seed.js';
import { runCli } from '../helpers/cli.js';
import { keyHeaders } from '../helpers/key-header.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { type LineProcess, spawnPlatctl } from '../helpers/process.js';
import { commitFiles, createGitRemote, type GitRemote } from './helpers/git-remote.js';
import { API_KEY, CONTROL_TOKEN } from './helpers/stack.js';

const PROJECTS = Array.from({ length: 24 }, (_, i) => `shard-p${i + 1}`);
const RPS = 12;

const workspace = (project: string, name: string) =>
  `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ${name}\n  project: ${project}\n`;

interface Replica extends LineProcess {
  readonly name: string;
  readonly url: string;
  status(): Promise<{ shards?: { replica: string; held: string[]; replicas: unknown[] } }>;
}

/** When each run of each replica held each shard: from the replicas' own JSON logs. */
function runIntervals(replicas: readonly Replica[], killed: ReadonlyMap<Replica, number>) {
  const out: { replica: string; shard: string; start: number; end: number }[] = [];
  for (const r of replicas) {
    const open = new Map<string, { shards: string[]; start: number }>();
    for (const line of r.lines) {
      if (!line.startsWith('{')) continue;
      const e = JSON.parse(line) as {
        event?: string;
        runId?: string;
        shards?: string[];
        time: string;
      };
      if (e.event === 'shard-run') {
        open.set(e.runId!, { shards: e.shards!, start: Date.parse(e.time) });
      }
      if (e.event === 'shard-run-end' && open.has(e.runId!)) {
        for (const shard of open.get(e.runId!)!.shards) {
          out.push({
            replica: r.name,
            shard,
            start: open.get(e.runId!)!.start,
            end: Date.parse(e.time),
          });
        }
        open.delete(e.runId!);
      }
    }
    // a run still going lasts until now; one cut by kill -9, until the kill
    for (const { shards, start } of open.values()) {
      const end = killed.get(r) ?? Date.now();
      for (const shard of shards) out.push({ replica: r.name, shard, start, end });
    }
  }
  return out;
}

describe.skipIf(!postgresUrl)('controller replicas sharding projects (real processes)', () => {
  let emulator: RunningEmulator;
  let schema: TestSchema;
  let dir: string;
  let remote: GitRemote;
  const replicas: Replica[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'platctl-shard-'));
    const seed = join(dir, 'seed.yaml');
    writeFileSync(
      seed,
      stringify({
        ...DEFAULT_SEED,
        projects: [
          ...DEFAULT_SEED.projects,
          ...PROJECTS.map((name) => ({ id: `prj-${name}`, name, org: 'org-acme' })),
        ],
      }),
    );
    emulator = await startEmulator({ port: 0, apiKey: API_KEY, admin: true, seedFile: seed });
    schema = await testSchema('shard');
    remote = await createGitRemote(join(dir, 'git'));
    commitFiles(
      remote,
      Object.fromEntries(PROJECTS.map((p) => [`${p}.yaml`, workspace(p, 'ws-a')])),
      'one workspace per project',
    );
  });
  afterAll(async () => {
    for (const r of replicas) r.child.kill('SIGKILL');
    await emulator?.close();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const replica = async (name: string): Promise<Replica> => {
    const p = spawnPlatctl(
      [
        'controller',
        '--repo',
        remote.bare,
        '--interval',
        '4s',
        '--listen',
        '127.0.0.1:0',
        '--cache-dir',
        join(dir, name),
        '--shard-by',
        'project',
        '--rps',
        String(RPS),
      ],
      {
        PLATCTL_BASE_URL: emulator.url,
        PLATCTL_API_KEY: API_KEY,
        PLATCTL_STATE_URL: schema.url,
        PLATCTL_CONTROL_TOKEN: CONTROL_TOKEN,
      },
    );
    const started = JSON.parse(await p.waitFor(/"event":"started"/)) as { listen: string };
    const r: Replica = {
      ...p,
      name,
      url: `http://${started.listen}`,
      status: async () => (await fetch(`http://${started.listen}/status`)).json() as never,
    };
    replicas.push(r);
    return r;
  };

  const workspaceExists = async (project: string, name: string) =>
    (
      await fetch(
        `${emulator.url}/apis/paas.envmgmt.io/v1/projects/${project}/workspaces/${name}`,
        { headers: { ...keyHeaders(API_KEY) } },
      )
    ).status === 200;
  const eventually = async (what: string, check: () => Promise<boolean>, ms = 60_000) => {
    const until = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const heldBy = async (r: Replica) => (await r.status()).shards?.held ?? [];

  it('splits the projects, never two replicas on one, takes over after kill -9, gives a joiner a share', async () => {
    const [a, b, c] = [await replica('a'), await replica('b'), await replica('c')];
    // every project converges, and the three replicas each hold a share of the projects
    await eventually('every project converged', async () =>
      (await Promise.all(PROJECTS.map((p) => workspaceExists(p, 'ws-a')))).every(Boolean),
    );
    await eventually('every project held by one of three replicas, each holding some', async () => {
      const seen = await Promise.all([a, b, c].map(async (r) => (await r.status()).shards));
      if (!seen.every((s) => s?.replicas.length === 3 && s.held.length > 0)) return false;
      const held = seen.flatMap((s) => s?.held ?? []);
      return PROJECTS.every((p) => held.filter((s) => s === `project:${p}`).length === 1);
    });
    const shares = await Promise.all([a, b, c].map(heldBy));
    console.log(`shards: ${shares.map((s, i) => `${'abc'[i]}=${s.join(',')}`).join(' ')}`);

    // kill -9 the replica with the most projects: the others take them and reconcile a change
    const most = Math.max(...shares.map((s) => s.length));
    const victim = [a, b, c][shares.findIndex((s) => s.length === most)]!;
    const survivors = [a, b, c].filter((r) => r !== victim);
    const orphaned = (await heldBy(victim)).filter((s) => s.startsWith('project:'));
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    commitFiles(
      remote,
      Object.fromEntries(PROJECTS.map((p) => [`${p}-b.yaml`, workspace(p, 'ws-b')])),
      'a second workspace per project',
    );
    await eventually("the killed replica's projects held by survivors", async () => {
      const held = (await Promise.all(survivors.map(heldBy))).flat();
      return orphaned.every((s) => held.includes(s));
    });
    console.log(
      `takeover of ${orphaned.length} project(s) after kill -9: ${Date.now() - killedAt} ms`,
    );
    await eventually('every project converged after the kill', async () =>
      (await Promise.all(PROJECTS.map((p) => workspaceExists(p, 'ws-b')))).every(Boolean),
    );
    // each project's saved status is its own document, saved by whoever holds it now (the
    // killed replica's projects too); the unsharded leader's one row is never written
    const saved = async () => {
      const { rows } = await schema.query(
        `SELECT name, doc FROM "${schema.name}".controller_status ORDER BY name`,
      );
      return new Map(
        rows.map((r) => [r.name as string, r.doc as { conditions?: { key: string }[] }]),
      );
    };
    await eventually('every project saved its status with the second workspace', async () => {
      const docs = await saved();
      return PROJECTS.every((p) =>
        docs.get(`shard/project:${p}`)?.conditions?.some((c) => c.key === `Workspace/${p}/ws-b`),
      );
    });
    expect((await saved()).has('status')).toBe(false);

    // a replica that joins is given a share
    const d = await replica('d');
    await eventually('the new replica holds projects', async () => (await heldBy(d)).length > 0);
    const ctl = await runCli(['ctl', 'status'], {
      env: { PLATCTL_CONTROLLER_URL: d.url, PLATCTL_CONTROL_TOKEN: CONTROL_TOKEN },
    });
    expect(ctl.stdout).toMatch(/^shards: +by project; this replica holds [1-9]/m);
    expect(ctl.stdout).toContain(`* ${(await d.status()).shards?.replica}: `);

    // no project was ever reconciled by two replicas at once
    const intervals = runIntervals([a, b, c, d], new Map([[victim, killedAt]])).sort(
      (x, y) => x.start - y.start,
    );
    const overlaps = intervals.flatMap((x, i) =>
      intervals
        .slice(i + 1)
        .filter((y) => y.shard === x.shard && y.replica !== x.replica && y.start < x.end)
        .map((y) => `${x.shard}: ${x.replica} and ${y.replica}`),
    );
    expect(intervals.length).toBeGreaterThan(PROJECTS.length);
    expect(overlaps).toEqual([]);
  }, 180_000);
});

describe('--shard-by on a SQLite state', () => {
  it('is refused before anything starts or is created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platctl-shard-sqlite-'));
    try {
      const r = await runCli(
        ['controller', '--watch', dir, '--state', join(dir, 'state.db'), '--shard-by', 'project'],
        { env: { PLATCTL_BASE_URL: 'http://127.0.0.1:9', PLATCTL_API_KEY: API_KEY } },
      );
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/--shard-by project needs a PostgreSQL state/);
      expect(existsSync(join(dir, 'state.db'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
