import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/state/index.js';
import { runCli } from '../helpers/cli.js';
import { type World, world } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

const KEY = 'Workspace/platform/shared-services';

describe('platctl state list and state forget', () => {
  it('lists what the state manages and forgets one key, only when told, never under a lock', async () => {
    const state = join(w.dir, 'state.db');
    await w.run({ mode: 'apply', paths: [join(w.manifests, '10-platform.yaml')] });

    const listed = await runCli(['state', 'list', '--state', state]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^KEY +OWNER +PROTECTED +LAST-APPLIED$/m);
    expect(listed.stdout).toMatch(new RegExp(`^${KEY} +created +no +yes$`, 'm'));
    const json = JSON.parse(
      (await runCli(['state', 'list', '-o', 'json', '--state', state])).stdout,
    );
    expect(json).toContainEqual({
      key: KEY,
      owner: 'created',
      protected: false,
      lastApplied: true,
    });

    // off a terminal, without --yes: asks nobody, changes nothing
    const refused = await runCli(['state', 'forget', KEY, '--state', state]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('pass --yes');
    expect((await runCli(['state', 'list', '--state', state])).stdout).toContain(KEY);

    // while another process holds the run lease: refused
    const other = openStateStore(state);
    const lease = await other.acquire({
      holder: { id: 'apply:ci-runner-3:4242:x', pid: 4242, host: 'ci-runner-3' },
      heartbeat: false,
    });
    const locked = await runCli(['state', 'forget', KEY, '--yes', '--state', state]);
    await lease.release();
    await other.close();
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain('ci-runner-3');

    const forgot = await runCli(['state', 'forget', KEY, '--yes', '--state', state]);
    expect(forgot.code, forgot.stderr).toBe(0);
    expect(forgot.stdout).toContain(`Forgot ${KEY}`);
    expect((await runCli(['state', 'list', '--state', state])).stdout).not.toContain(KEY);
    const unknown = await runCli(['state', 'forget', KEY, '--yes', '--state', state]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('is not in the state');

    // the platform was not touched: git still declares it, so the next plan finds it in sync
    const plan = await w.run({ mode: 'plan', paths: [join(w.manifests, '10-platform.yaml')] });
    expect(plan.plan!.actions.find((a) => a.key === KEY)?.type).toBe('noop');
    expect(plan.plan!.found).toContain(KEY);
  }, 120_000);
});
