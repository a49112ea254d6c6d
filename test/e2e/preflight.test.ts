import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, defaultDialect } from '../../src/core/dialect.js';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { EXAMPLES, INSTANT, type JournalEntry } from './harness.js';

const apiKey = randomBytes(16).toString('hex');
let emulator: RunningEmulator;
let dir: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: INSTANT });
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
  const res = await emulatorControl(emulator.url, 'GET', '/_emulator/journal?since=0');
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

/** A copy of the examples with `edit` applied to one file; returns the directory. */
function examplesWith(file: string, edit: (text: string) => string): string {
  const copy = mkdtempSync(join(dir, 'manifests-'));
  cpSync(EXAMPLES, copy, { recursive: true });
  writeFileSync(join(copy, file), edit(readFileSync(join(copy, file), 'utf8')));
  return copy;
}

describe('plan checks references against the live platform', () => {
  const withPassword = () => ({ ...env, PLATCTL_DEMO_PASSWORD: 'Pw-preflight-1' });

  it('reports an unknown project at the manifest line instead of a bare 404', async () => {
    const copy = examplesWith('20-ml-research.yaml', (t) =>
      t.replaceAll('project: ml-research', 'project: ml-reserch'),
    );
    const r = await runCli(['plan', copy, '--state', join(dir, 'project.db')], {
      env: withPassword(),
    });
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).not.toMatch(/404 listing/);
    // once per file, at the metadata.project of the first document naming it
    expect(out.match(/unknown-project/g)).toHaveLength(1);
    expect(out).toMatch(
      /20-ml-research\.yaml:8:12: error\[unknown-project\]: project ml-reserch .*unknown.*\(visible: .*ml-research/,
    );
    expect(await writesSent()).toEqual([]);
  }, 60_000);

  it('points an apply failure the platform reports at the field line, said once', async () => {
    const copy = examplesWith('20-ml-research.yaml', (t) =>
      t.replace('name: bmaas-l40s', 'name: bmaas-nope'),
    );
    const line = readFileSync(join(copy, '20-ml-research.yaml'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('bmaas-nope'));
    const r = await runCli(['apply', copy, '--state', join(dir, 'profile.db'), '--auto-approve'], {
      env: withPassword(),
      timeoutMs: 90_000,
    });
    expect(r.code).toBe(1);
    if (DIALECTS[defaultDialect()].profileReads) {
      // a platform that lists its profiles: the plan says so at the line, and nothing is sent
      expect(r.stdout + r.stderr).toMatch(
        new RegExp(
          `20-ml-research\\.yaml:${line + 1}:\\d+: .*compute profile bmaas-nope is not offered`,
        ),
      );
      expect(await writesSent()).toEqual([]);
      return;
    }
    const failed = r.stdout.split('\n').filter((l) => l.startsWith('failed: '));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain(`20-ml-research.yaml:${line + 1}:`);
    expect(failed[0]!.match(/unknown profile bmaas-nope/g)).toHaveLength(1);
  }, 90_000);
});
