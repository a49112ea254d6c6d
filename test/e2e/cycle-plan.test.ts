import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';

let emulator: RunningEmulator;
let dir: string;
const apiKey = randomBytes(16).toString('hex');
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey });
  dir = mkdtempSync(join(tmpdir(), 'platctl-cycle-'));
  writeFileSync(
    join(dir, 'dev.yaml'),
    `apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: dev
  project: ml-research
  dependsOn:
    - {kind: ComputeInstance, name: gpu-1, workspace: dev}
---
apiVersion: paas.envmgmt.io/v1
kind: ComputeInstance
metadata:
  name: gpu-1
  project: ml-research
  workspace: dev
spec:
  computeType: baremetal
  computeProfile: {name: bmaas-h100}
  variables: []
`,
  );
});
afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

// issue 22, item 4: a cycle through an implicit edge passed validate, and plan printed a plan
// and then an error naming internal nodes (`#noop`) without a place
describe('a workspace that depends on an instance living in it', () => {
  it('fails validate at each manifest, and plan prints no plan', async () => {
    const validate = await runCli(['validate', dir]);
    expect(validate.code).toBe(1);
    expect(validate.stderr + validate.stdout).toContain('dev.yaml:7:7: error[dependency-cycle]');
    expect(validate.stderr + validate.stdout).toContain('dev.yaml:14:14: error[dependency-cycle]');

    const env = { PLATCTL_BASE_URL: emulator.url, PLATCTL_API_KEY: apiKey };
    const plan = await runCli(['plan', dir, '--state', join(dir, 's.db')], { env });
    expect(plan.code).toBe(1);
    expect(plan.stdout).not.toMatch(/Plan:|No changes/);
    expect(plan.stderr).toContain(
      'Workspace ml-research/dev -> ComputeInstance ml-research/dev/gpu-1 -> Workspace ml-research/dev',
    );
    expect(plan.stderr).toContain('dev.yaml:7:7');
    expect(plan.stdout + plan.stderr).not.toContain('#');
  }, 60_000);
});
