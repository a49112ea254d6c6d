import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { openStateStore } from '../../src/state/index.js';
import { runCli } from '../helpers/cli.js';
import { keyHeaders } from '../helpers/key-header.js';
import { INSTANT } from './harness.js';

/**
 * ChangeWindow in the CLI (issue 25): a delete inside a deny window is shown by `plan` with its
 * window, refused by `apply` with a clear error and nothing sent, and applied with
 * `--outside-window "<reason>"`, the reason kept in the run history.
 */
const apiKey = randomBytes(16).toString('hex');
let emulator: RunningEmulator;
let dir: string;
let env: Record<string, string>;
beforeEach(async () => {
  emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: INSTANT });
  dir = mkdtempSync(join(tmpdir(), 'platctl-window-'));
  env = { PLATCTL_BASE_URL: emulator.url, PLATCTL_API_KEY: apiKey };
});
afterEach(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const OLD = () => `${emulator.url}/apis/paas.envmgmt.io/v1/projects/default/workspaces/old`;

const workspace = (name: string) => `apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: ${name}
  project: default
---
`;

/** A deny window over deletes in project default, from yesterday through tomorrow (UTC). */
function freeze(): { yaml: string; until: string } {
  const day = (offset: number) =>
    new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const yaml = `apiVersion: platctl.io/v1alpha1
kind: ChangeWindow
metadata:
  name: freeze
spec:
  window: deny
  actions: [delete]
  projects: [default]
  timeZone: UTC
  dates:
    - from: "${day(-1)}"
      to: "${day(1)}"
`;
  return { yaml, until: `${day(2)}T00:00:00.000Z` };
}

function write(files: Record<string, string>): string {
  const manifests = join(dir, 'manifests');
  rmSync(manifests, { recursive: true, force: true });
  mkdirSync(manifests, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(manifests, f), text);
  return manifests;
}

describe('kind: ChangeWindow in plan and apply', () => {
  it('a delete inside a deny window: shown by plan, refused by apply, applied with a reason', async () => {
    const state = join(dir, 'state.db');
    const { yaml, until } = freeze();
    const both = write({ 'ws.yaml': workspace('keep') + workspace('old'), 'window.yaml': yaml });
    const first = await runCli(['apply', both, '--state', state, '--auto-approve'], { env });
    expect(first.code).toBe(0);

    const one = write({ 'ws.yaml': workspace('keep'), 'window.yaml': yaml });
    const plan = await runCli(['plan', one, '--state', state, '--prune'], { env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Change windows:');
    expect(plan.stdout).toContain(
      `delete Workspace/default/old: ChangeWindow/freeze, held until ${until}`,
    );

    const refused = await runCli(['apply', one, '--state', state, '--prune', '--auto-approve'], {
      env,
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(
      `delete is outside change window ChangeWindow/freeze (held until ${until}); apply --outside-window "<reason>" to apply it now`,
    );
    expect((await fetch(OLD(), { headers: keyHeaders(apiKey) })).status).toBe(200);

    const reason = 'INC-42: the old workspace leaks credentials';
    const forced = await runCli(
      ['apply', one, '--state', state, '--prune', '--auto-approve', '--outside-window', reason],
      { env },
    );
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`applied outside the window: ${reason}`);
    expect((await fetch(OLD(), { headers: keyHeaders(apiKey) })).status).toBe(404);
    const store = openStateStore(state);
    try {
      const [run] = await store.runs(1);
      expect(run).toMatchObject({
        trigger: 'cli',
        result: 'succeeded',
        counts: { delete: 1 },
        outsideWindow: {
          reason,
          actions: [{ key: 'Workspace/default/old', window: 'ChangeWindow/freeze' }],
        },
      });
    } finally {
      await store.close();
    }
  }, 90_000);

  it('an unknown time zone is a validate error at its line', async () => {
    const bad = write({
      'window.yaml': freeze().yaml.replace('timeZone: UTC', 'timeZone: Mars/Olympus'),
    });
    const r = await runCli(['validate', bad], { env });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(
      /window\.yaml:9:13: error\[invalid-window\]: .*unknown time zone Mars\/Olympus/,
    );
  }, 30_000);
});
