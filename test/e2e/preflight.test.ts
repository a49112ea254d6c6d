import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { EXAMPLES, FAST, type JournalEntry } from './harness.js';

const apiKey = randomBytes(16).toString('hex');
let emulator: RunningEmulator;
let dir: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: FAST });
  dir = mkdtempSync(join(tmpdir(), 'platctl-preflight-'));
  env = {
    PLATCTL_BASE_URL: emulator.url,
    PLATCTL_API_KEY: apiKey,
    PLATCTL_DEMO_PASSWORD: undefined,
  };
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

async function writesSent(): Promise<JournalEntry[]> {
  const res = await fetch(`${emulator.url}/_emulator/journal?since=0`);
  const { entries } = (await res.json()) as { entries: JournalEntry[] };
  return entries.filter((e) => e.method !== 'GET');
}

describe('plan checks the secrets it will need before anything runs', () => {
  it('reports an unset passwordFrom.env at its file:line in plan, and apply sends nothing', async () => {
    const state = join(dir, 'state.db');
    const plan = await runCli(['plan', EXAMPLES, '--state', state, '--detailed-exitcode'], { env });
    expect(plan.code).toBe(1);
    const out = plan.stdout + plan.stderr;
    // one report per user that would be created, each at its passwordFrom line
    const reports = out.match(/00-users\.yaml:\d+:\d+: .*PLATCTL_DEMO_PASSWORD.*/g) ?? [];
    expect(reports).toHaveLength(3);
    expect(reports[0]).toMatch(
      /00-users\.yaml:14:\d+: error: User\/alice@acme\.example: .*create needs it/,
    );

    const apply = await runCli(['apply', EXAMPLES, '--state', state, '--auto-approve'], { env });
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toMatch(/00-users\.yaml:14:\d+: /);
    expect(apply.stdout + apply.stderr).not.toMatch(/^Apply:/m);
    expect(await writesSent()).toEqual([]);
  }, 60_000);
});
