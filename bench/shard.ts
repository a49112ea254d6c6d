/**
 * Sharding benchmark: `npx tsx bench/shard.ts [--projects 30] [--workspaces 10] [--rps 40]`.
 *
 * Two scenarios on one PostgreSQL state each (a fresh schema of $PLATCTL_BENCH_DATABASE_URL,
 * default the local test database, dropped afterwards) and a fresh in-process emulator seeded
 * with `--projects` projects: one `platctl controller` process, then three with `--shard-by
 * project`, all with the same `--rps`, on a directory of `--workspaces` workspaces per project.
 * Measures the time from starting the processes until the emulator has created every workspace,
 * and, from the emulator's request journal, the most requests it received in one second: in
 * whole seconds of its clock, and in any sliding 1 s window. Prints one row per scenario. Then
 * kills (-9) the sharded replica holding the most shards and measures how long until the others
 * hold all of them.
 *
 * `--change` then measures what issue 27 asks of a sharded fleet: once every workspace exists
 * and the emulator has had no request for 3 s (no run still in flight),
 * the description of one workspace in every project is edited in git (the watched directory) and
 * the time is taken until the emulator has answered that many updates — against the shared
 * budget's floor, the requests the fleet sent for it (from the journal, after the edit) spaced as
 * the budget spaces them (`1.1 × 1000 / rps` ms each, `PACE_MARGIN` in budget.ts). `--only-sharded`
 * leaves out the single replica's scenario.
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { emulatorControl } from '../src/emulator/admin/client.js';
import { startEmulator } from '../src/emulator/index.js';
import { DEFAULT_SEED } from '../src/emulator/seed/default-seed.js';
import { type LineProcess, spawnTsx } from '../test/helpers/process.js';
import { changeEveryProject, dropSchema, type Entry, peaks, takeover } from './shard-fleet.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '30' },
    workspaces: { type: 'string', default: '10' },
    rps: { type: 'string', default: '40' },
    replicas: { type: 'string', default: '3' },
    /** Write each replica's CPU profile (`node --cpu-prof`) under this directory (no kill -9). */
    profile: { type: 'string' },
    change: { type: 'boolean', default: false },
    'only-sharded': { type: 'boolean', default: false },
    /** Seconds to wait for every workspace before giving up (printing each replica's last lines). */
    wait: { type: 'string', default: '600' },
  },
});
const projects = Array.from({ length: Number(values.projects) }, (_, i) => `bench-p${i + 1}`);
const perProject = Number(values.workspaces);
const rps = Number(values.rps);
const waitMs = Number(values.wait) * 1000;
const bin = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
const databaseUrl =
  process.env.PLATCTL_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const apiKey = randomBytes(16).toString('hex');
const dir = mkdtempSync(join(tmpdir(), 'platctl-shard-bench-'));
const seedFile = join(dir, 'seed.yaml');
writeFileSync(
  seedFile,
  stringify({
    ...DEFAULT_SEED,
    projects: [
      ...DEFAULT_SEED.projects,
      ...projects.map((name) => ({ id: `prj-${name}`, name, org: 'org-acme' })),
    ],
  }),
);
mkdirSync(join(dir, 'manifests'));
/** Writes each project's workspaces; `description`: the first one's, the change `--change` makes. */
function writeManifests(description?: string) {
  for (const p of projects) {
    writeFileSync(
      join(dir, 'manifests', `${p}.yaml`),
      Array.from(
        { length: perProject },
        (_, i) =>
          `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws-${i}\n  project: ${p}\n` +
          (i === 0 && description ? `  description: ${description}\n` : ''),
      ).join('---\n'),
    );
  }
}
writeManifests();

async function scenario(replicas: number, sharded: boolean) {
  const schema = `bench_shard_${randomBytes(4).toString('hex')}`;
  const emulator = await startEmulator({ port: 0, apiKey, admin: true, seedFile });
  const procs: LineProcess[] = [];
  const total = projects.length * perProject;
  try {
    const started = performance.now();
    for (let r = 0; r < replicas; r++) {
      procs.push(
        spawnTsx(
          bin,
          [
            'controller',
            '--watch',
            join(dir, 'manifests'),
            '--interval',
            '10m',
            '--listen',
            '127.0.0.1:0',
            '--cache-dir',
            join(dir, `${schema}-${r}`),
            '--rps',
            String(rps),
            ...(sharded ? ['--shard-by', 'project'] : []),
          ],
          {
            PLATCTL_BASE_URL: emulator.url,
            PLATCTL_API_KEY: apiKey,
            PLATCTL_STATE_URL: `${databaseUrl}?schema=${schema}`,
          },
          values.profile
            ? ['--cpu-prof', `--cpu-prof-dir=${join(values.profile, `${replicas}-replicas`)}`]
            : [],
        ),
      );
    }
    // when the processes were up (listening) and first reconciled: the parts of the time that
    // are start-up rather than work
    const since = (re: RegExp) =>
      Promise.all(procs.map((p) => p.waitFor(re, 0, 600_000))).then(
        () => (performance.now() - started) / 1000,
      );
    const listening = since(/"event":"started"/);
    const firstRun = Promise.race(
      procs.map((p) => p.waitFor(/"event":"run-start"/, 0, 600_000)),
    ).then(() => (performance.now() - started) / 1000);
    let entries: Entry[] = [];
    for (;;) {
      const res = await emulatorControl(emulator.url, 'GET', '/_emulator/journal');
      entries = ((await res.json()) as { entries: Entry[] }).entries;
      const created = entries.filter(
        (e) => e.method === 'POST' && /\/workspaces$/.test(e.path) && e.status < 300,
      ).length;
      if (created >= total) break;
      if (entries.length % 50 === 0 || Math.random() < 0.02) {
        console.error(
          `${((performance.now() - started) / 1000).toFixed(0)} s: ${created} of ${total} created, ${entries.length} requests`,
        );
      }
      if (performance.now() - started > waitMs) {
        // what each replica was saying when the time ran out
        const said = procs.map((p, i) => `replica ${i}:\n  ${p.lines.slice(-8).join('\n  ')}`);
        throw new Error(`only ${created} of ${total} created\n${said.join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const { whole, sliding } = peaks(entries);
    // the span from the first request to the last: what the processes' start-up leaves out
    const times = entries.map((e) => Date.parse(e.time));
    const active = (Math.max(...times) - Math.min(...times)) / 1000;
    const change = values.change
      ? await changeEveryProject(emulator.url, entries, {
          projects: projects.length,
          rps,
          edit: writeManifests,
        })
      : undefined;
    const takeoverMs = sharded && !values.profile ? await takeover(procs) : undefined;
    return {
      change,
      takeoverMs,
      seconds,
      up: await listening,
      firstRun: await firstRun,
      active,
      requests: entries.length,
      whole,
      sliding,
    };
  } finally {
    if (values.profile) {
      // a profile is written on a clean exit: SIGTERM, and wait for it
      await Promise.all(
        procs.map(
          (p) =>
            new Promise((r) => {
              p.child.once('exit', r);
              p.child.kill('SIGTERM');
            }),
        ),
      );
    }
    for (const p of procs) p.child.kill('SIGKILL');
    await emulator.close();
    await dropSchema(databaseUrl, schema);
  }
}

try {
  const one = values['only-sharded'] ? undefined : await scenario(1, false);
  const many = await scenario(Number(values.replicas), true);
  console.log(
    `${projects.length} projects × ${perProject} workspaces, --rps ${rps}\n` +
      '| Replicas | Converged | All listening | First run starts | First to last request | Requests | Peak in a whole second | Peak in any sliding second |\n' +
      '|---|---|---|---|---|---|---|---|',
  );
  const rows = [
    ...(one ? [['1', one] as const] : []),
    [`${values.replicas}, --shard-by project`, many] as const,
  ];
  for (const [label, r] of rows) {
    console.log(
      `| ${label} | ${r.seconds.toFixed(1)} s | ${r.up.toFixed(1)} s | ${r.firstRun.toFixed(1)} s | ${r.active.toFixed(1)} s | ${r.requests} | ${r.whole} | ${r.sliding} |`,
    );
  }
  if (values.change) {
    console.log(
      '\nA change to one workspace of every project\n' +
        '| Replicas | Converged after the edit | First to last request | Requests (GET / updates) | Budget floor (requests × 1.1 ÷ rps) | Converged ÷ floor |\n' +
        '|---|---|---|---|---|---|',
    );
    for (const [label, r] of rows) {
      const c = r.change!;
      console.log(
        `| ${label} | ${c.seconds.toFixed(1)} s | ${c.active.toFixed(1)} s | ${c.requests} (${c.lists} / ${c.updates}) | ${c.floor.toFixed(1)} s | ${c.ratio.toFixed(2)} |`,
      );
    }
  }
  if (many.takeoverMs !== undefined) {
    console.log(
      `kill -9 of the replica holding the most shards: the others hold all of them after ${many.takeoverMs.toFixed(0)} ms`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
