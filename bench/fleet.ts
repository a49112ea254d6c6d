/**
 * Fleet benchmark (issue 23): `npx tsx bench/fleet.ts [--trials 3] [--ttl 5]`.
 *
 * Two measures with real `platctl controller` processes on one PostgreSQL state (a fresh schema
 * of $PLATCTL_BENCH_DATABASE_URL, default the local test database, dropped afterwards) and the
 * emulator in-process:
 *
 * 1. **Writes after deposition.** 40 workspaces exist with another description; leader A
 *    updates them at 5 requests/s. Mid-apply A is cut off, either by SIGSTOP (resumed with
 *    SIGCONT once B leads) or by freezing a loopback TCP forwarder between A and PostgreSQL (a
 *    silent network cut). B stands by in dry-run, so every platform write after B leads is A's.
 *    Prints, per trial and mode, the writes A sent after B led (want 0) and B's takeover time.
 * 2. **Standby idle CPU after triggers.** A leads, B stands by; B gets 20 signed webhooks and 20
 *    `POST /api/v1/reconcile`; then B's CPU seconds (from /proc) over 10 s, and the database's
 *    commits per second over the same window (both replicas; the schema is the bench's own).
 */

import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { emulatorControl } from '../src/emulator/admin/client.js';
import { startEmulator } from '../src/emulator/index.js';
import { type LineProcess, spawnTsx } from '../test/helpers/process.js';
import { startForwarder } from '../test/helpers/tcp-forwarder.js';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '3' },
    ttl: { type: 'string', default: '5' },
  },
});
const trials = Number(values.trials);
const ttl = `${Number(values.ttl)}s`;
const bin = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
const databaseUrl =
  process.env.PLATCTL_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const apiKey = randomBytes(16).toString('hex');
const webhookSecret = randomBytes(16).toString('hex');
const controlToken = randomBytes(16).toString('hex');
const emulator = await startEmulator({ port: 0, apiKey, admin: true });
const dir = mkdtempSync(join(tmpdir(), 'platctl-fleet-'));
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
const schemas: string[] = [];
const WORKSPACES = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';
const N = 40;

interface Replica extends LineProcess {
  readonly url: string;
}

async function replica(name: string, stateUrl: string, extra: string[] = []): Promise<Replica> {
  const manifests = join(dir, 'manifests');
  const p = spawnTsx(
    bin,
    [
      'controller',
      '--watch',
      manifests,
      '--listen',
      '127.0.0.1:0',
      '--cache-dir',
      join(dir, name),
      '--lease-ttl',
      ttl,
      ...extra,
    ],
    {
      PLATCTL_BASE_URL: emulator.url,
      PLATCTL_API_KEY: apiKey,
      PLATCTL_STATE_URL: stateUrl,
      PLATCTL_WEBHOOK_SECRET: webhookSecret,
      PLATCTL_CONTROL_TOKEN: controlToken,
    },
  );
  const started = JSON.parse(await p.waitFor(/"event":"started"/)) as { listen: string };
  return { ...p, url: `http://${started.listen}` };
}

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${emulator.url}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
const journal = async () =>
  (
    (await (await emulatorControl(emulator.url, 'GET', '/_emulator/journal')).json()) as {
      entries: { method: string; path: string }[];
    }
  ).entries;
const writes = async () =>
  (await journal()).filter((e) => e.method !== 'GET' && e.path.startsWith(WORKSPACES)).length;
const until = async (check: () => Promise<boolean> | boolean, ms = 60_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const freshSchema = async () => {
  const name = `bench_fleet_${randomBytes(4).toString('hex')}`;
  schemas.push(name);
  await admin.query(`CREATE SCHEMA "${name}"`);
  const url = new URL(databaseUrl);
  url.searchParams.set('schema', name);
  return url;
};
const workspace = (name: string, description: string) =>
  `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ${name}\n  project: platform\n  description: ${description}\n`;

/** One trial of writes after deposition; resolves with what it measured. */
async function deposition(mode: 'sigstop' | 'freeze', trial: number) {
  const names = Array.from({ length: N }, (_, i) => `ws-${mode}-${trial}-${i}`);
  rmSync(join(dir, 'manifests'), { recursive: true, force: true });
  mkdirSync(join(dir, 'manifests'));
  for (const n of names) {
    await api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: n, project: 'platform', description: 'by hand' },
    });
    writeFileSync(join(dir, 'manifests', `${n}.yaml`), workspace(n, 'from git'));
  }
  const state = await freshSchema();
  const db = new URL(databaseUrl);
  const forwarder = await startForwarder({ host: db.hostname, port: Number(db.port || 5432) });
  const viaForwarder = new URL(state);
  viaForwarder.port = String(forwarder.port);
  const before = await writes();
  const a = await replica(`a-${mode}-${trial}`, (mode === 'freeze' ? viaForwarder : state).href, [
    '--rps',
    '5',
  ]);
  let b: Replica | undefined;
  try {
    await a.waitFor(/"event":"leader"/);
    b = await replica(`b-${mode}-${trial}`, state.href, ['--dry-run']);
    await b.waitFor(/"event":"standby"/);
    await until(async () => (await writes()) - before >= 3);
    const cutAt = performance.now();
    if (mode === 'sigstop') a.child.kill('SIGSTOP');
    else forwarder.freeze();
    const from = b.lines.length;
    await b.waitFor(/"event":"leader"/, from, 120_000);
    const takeoverMs = performance.now() - cutAt;
    const atTakeover = await writes();
    if (mode === 'sigstop') a.child.kill('SIGCONT');
    // a lease ttl and more: whatever A still sends shows up
    await new Promise((r) => setTimeout(r, 2 * Number(values.ttl) * 1000));
    const late = (await writes()) - atTakeover;
    return { takeoverMs, late, total: atTakeover - before };
  } finally {
    a.child.kill('SIGKILL');
    b?.child.kill('SIGKILL');
    await forwarder.close();
  }
}

/** CPU seconds (user + system) of process `pid` so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const commits = async () =>
  Number(
    (
      await admin.query(
        'SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()',
      )
    ).rows[0].xact_commit,
  );

/** Standby idle CPU and database commits after triggers sent to the standby. */
async function standbyIdle() {
  rmSync(join(dir, 'manifests'), { recursive: true, force: true });
  mkdirSync(join(dir, 'manifests'));
  writeFileSync(join(dir, 'manifests', 'ws.yaml'), workspace('ws-idle', 'idle'));
  const state = await freshSchema();
  const a = await replica('a-idle', state.href);
  const b = await replica('b-idle', state.href);
  try {
    await a.waitFor(/"event":"leader"/);
    await b.waitFor(/"event":"standby"/);
    const body = JSON.stringify({ ref: 'refs/heads/main' });
    const statuses = new Map<number, number>();
    for (let i = 0; i < 20; i++) {
      const hook = await fetch(`${b.url}/hooks/git`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': `sha256=${createHmac('sha256', webhookSecret).update(body).digest('hex')}`,
        },
        body,
      });
      const ctl = await fetch(`${b.url}/api/v1/reconcile`, {
        method: 'POST',
        headers: { authorization: `Bearer ${controlToken}`, 'content-type': 'application/json' },
        body: '{}',
      });
      for (const s of [hook.status, ctl.status]) statuses.set(s, (statuses.get(s) ?? 0) + 1);
    }
    const [cpu0, xact0, t0] = [cpuSeconds(b.child.pid!), await commits(), performance.now()];
    await new Promise((r) => setTimeout(r, 10_000));
    const [cpu1, xact1, t1] = [cpuSeconds(b.child.pid!), await commits(), performance.now()];
    const seconds = (t1 - t0) / 1000;
    return {
      answers: Object.fromEntries(statuses),
      cpuPer10s: ((cpu1 - cpu0) * 10) / seconds,
      commitsPerSecond: (xact1 - xact0) / seconds,
      lines: b.lines.length,
    };
  } finally {
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
  }
}

try {
  for (const mode of ['sigstop', 'freeze'] as const) {
    for (let t = 1; t <= trials; t++) {
      const r = await deposition(mode, t);
      console.log(
        `${mode} trial ${t}: B led ${r.takeoverMs.toFixed(0)} ms after the cut; A's writes before: ${r.total}, after B led: ${r.late}`,
      );
    }
  }
  const idle = await standbyIdle();
  console.log(
    `standby after 20 webhooks and 20 reconciles (answers ${JSON.stringify(idle.answers)}): ` +
      `${idle.cpuPer10s.toFixed(2)} CPU-s per 10 s, ${idle.commitsPerSecond.toFixed(1)} commits/s ` +
      `in the database (both replicas), ${idle.lines} log lines`,
  );
} finally {
  await emulator.close();
  for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
}
