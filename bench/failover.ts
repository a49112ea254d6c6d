/**
 * Failover benchmark: `npx tsx bench/failover.ts [--trials 5]`.
 *
 * Starts the emulator in-process and, per trial, two `platctl controller` processes on one
 * PostgreSQL state (a fresh schema of $PLATCTL_BENCH_DATABASE_URL, default the local test
 * database, dropped afterwards). Once one leads and the other stands by, the leader gets kill -9;
 * the trial measures the time until the standby logs that it leads. Prints each trial and the
 * median.
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmulator } from '../src/emulator/index.js';
import { spawnTsx } from '../test/helpers/process.js';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '5' } } });
const trials = Number(values.trials);
const bin = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
const databaseUrl =
  process.env.PLATCTL_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const apiKey = randomBytes(16).toString('hex');
const emulator = await startEmulator({ port: 0, apiKey, admin: true });
const dir = mkdtempSync(join(tmpdir(), 'platctl-failover-'));
mkdirSync(join(dir, 'manifests'));
writeFileSync(
  join(dir, 'manifests', 'ws.yaml'),
  'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws-failover\n  project: platform\n',
);
const schema = `bench_failover_${randomBytes(4).toString('hex')}`;
const env = {
  PLATCTL_BASE_URL: emulator.url,
  PLATCTL_API_KEY: apiKey,
  PLATCTL_STATE_URL: `${databaseUrl}?schema=${schema}`,
};
const replica = (name: string) =>
  spawnTsx(
    bin,
    [
      'controller',
      '--watch',
      join(dir, 'manifests'),
      '--listen',
      '127.0.0.1:0',
      '--cache-dir',
      join(dir, name),
    ],
    env,
  );

const results: number[] = [];
try {
  for (let t = 1; t <= trials; t++) {
    const a = replica(`a${t}`);
    let b: ReturnType<typeof replica> | undefined;
    try {
      await a.waitFor(/"event":"leader"/);
      b = replica(`b${t}`);
      await b.waitFor(/"event":"standby"/);
      const from = b.lines.length;
      const killedAt = performance.now();
      a.child.kill('SIGKILL');
      await b.waitFor(/"event":"leader"/, from, 30_000);
      const ms = performance.now() - killedAt;
      results.push(ms);
      console.log(`trial ${t}: standby leads ${ms.toFixed(0)} ms after kill -9 of the leader`);
    } finally {
      a.child.kill('SIGKILL');
      b?.child.kill('SIGKILL');
    }
  }
} finally {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
}
const sorted = [...results].sort((x, y) => x - y);
console.log(
  `median of ${sorted.length}: ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms ` +
    `(min ${sorted[0]?.toFixed(0)}, max ${sorted.at(-1)?.toFixed(0)})`,
);
