import { describe, expect, it } from 'vitest';
import type { RunningController } from '../../src/controller/controller.js';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { commitFiles } from './helpers/git-remote.js';
import { instancePath, instanceYaml, VPC_YAML, workspaceYaml } from './helpers/platform-yaml.js';
import { get, nextStep } from './helpers/stack.js';
import { until } from './helpers/until.js';
import { useStack } from './helpers/use-stack.js';

/**
 * Drift beyond changed fields (issue 9, defects 1 and 2): an instance powered off, deleted or
 * marked failed on the platform behind platctl's back is drift. With self-heal off it is reported
 * (status, log, metric) and left alone; with self-heal on it is corrected and still reported.
 */
const stack = useStack();

const KEY = 'ComputeInstance/platform/ws-a/box';
const BOX = instancePath('ws-a', 'box');

async function startApplied(selfHeal: boolean): Promise<RunningController> {
  commitFiles(
    stack.remote,
    {
      'platform/vpc.yaml': VPC_YAML,
      'platform/ws.yaml': workspaceYaml('ws-a', 'from-git'),
      'platform/box.yaml': instanceYaml('ws-a', 'box'),
    },
    'ws-a and its box',
  );
  const c = await stack.controller({ selfHeal });
  await nextStep(c, (o) => o.result === 'succeeded');
  expect(await powerState()).toBe('on');
  return c;
}

async function powerState(): Promise<string | undefined> {
  const r = await stack.api('GET', BOX);
  return (r.body as { status?: { powerState?: string } } | null)?.status?.powerState;
}

/** One resync; returns the platform writes it made. */
async function resync(c: RunningController) {
  const before = (await stack.journal()).length;
  const step = nextStep(c);
  c.loop.trigger('resync');
  const outcome = await step;
  const writes = (await stack.journal()).slice(before).filter((e) => e.method !== 'GET');
  return { outcome, writes };
}

async function expectReported(c: RunningController): Promise<void> {
  expect(c.status.drift).toEqual([KEY]);
  expect((await get(c, '/metrics')).text).toMatch(
    /platctl_drift_detected_total\{kind="ComputeInstance"\} 1/,
  );
  expect(stack.logs.some((l) => l.includes('"event":"drift"') && l.includes(KEY))).toBe(true);
}

describe('drift of every kind with --no-self-heal is reported and left alone', () => {
  it('an instance powered off outside git stays off', async () => {
    const c = await startApplied(false);
    expect((await stack.api('POST', `${BOX}/action/stop`)).status).toBe(200);
    const { writes } = await resync(c);
    expect(writes).toEqual([]);
    expect(await powerState()).toBe('off');
    await expectReported(c);
  });

  it('an instance deleted outside git is not recreated', async () => {
    const c = await startApplied(false);
    expect((await stack.api('DELETE', BOX)).status).toBeLessThan(300);
    await until('the delete', async () => (await stack.api('GET', BOX)).status === 404, 10_000, 50);
    const { writes } = await resync(c);
    expect(writes).toEqual([]);
    expect((await stack.api('GET', BOX)).status).toBe(404);
    await expectReported(c);
  });

  it('an instance the platform marks failed is not republished', async () => {
    const c = await startApplied(false);
    const failed = await emulatorControl(stack.emulator.url, 'POST', '/_emulator/fail', {
      kind: 'ComputeInstance',
      project: 'platform',
      workspace: 'ws-a',
      name: 'box',
    });
    expect(failed.status).toBe(200);
    const { writes } = await resync(c);
    expect(writes).toEqual([]);
    await expectReported(c);
  });
});

describe('drift of every kind with self-heal is corrected and reported', () => {
  it('an instance powered off outside git is powered on again, and that is drift', async () => {
    const c = await startApplied(true);
    expect((await stack.api('POST', `${BOX}/action/stop`)).status).toBe(200);
    const { outcome } = await resync(c);
    expect(outcome.result).toBe('succeeded');
    expect(await powerState()).toBe('on');
    await expectReported(c);
    expect(
      stack.logs.some((l) => l.includes('"event":"drift"') && l.includes('"corrected":true')),
    ).toBe(true);
  });
});
