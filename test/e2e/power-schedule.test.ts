import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  instancePath,
  instanceYaml,
  VPC_YAML,
  workspaceYaml,
} from '../controller/helpers/platform-yaml.js';
import { runCli } from '../helpers/cli.js';
import { keyHeaders } from '../helpers/key-header.js';
import { INSTANT, manifestDir, type World, world } from './harness.js';

/**
 * A PowerSchedule through the real CLI against the emulator (issue 25): `apply` at a time inside
 * an off period creates the selected instance and powers it off (the other stays on), `plan`
 * shows the Schedules section with the next transitions, and a manual power-on inside the off
 * period is drift that the next apply corrects.
 */
let w: World;
beforeEach(async () => {
  w = await world(INSTANT);
});
afterEach(async () => {
  await w.close();
});

const HOUR = 3_600_000;
const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
const GPU = instancePath('ws-a', 'gpu-1');
const CPU = instancePath('ws-a', 'cpu-1');

/** A schedule whose one daily period starts in two hours: now is in its off time. */
function scheduleYaml(start: number): string {
  return `apiVersion: platctl.io/v1alpha1
kind: PowerSchedule
metadata:
  name: nights-off
spec:
  timeZone: UTC
  periods:
    - days: [Mon, Tue, Wed, Thu, Fri, Sat, Sun]
      start: "${hhmm(start)}"
      stop: "${hhmm(start + HOUR)}"
  selector:
    names: ["gpu-*"]
`;
}

async function api(method: string, path: string) {
  const res = await fetch(`${w.emulator.url}${path}`, { method, headers: keyHeaders(w.apiKey) });
  return (await res.json()) as { status?: { powerState?: string } };
}

const powerActions = async (since: number) =>
  (await w.journal(since))
    .filter((e) => e.method === 'POST' && e.path.includes('/action/'))
    .map((e) => e.path.slice(e.path.lastIndexOf('/computeinstances/') + 18));

describe('a PowerSchedule through the CLI', () => {
  it('apply inside an off period powers the selected instance off; plan shows transitions', async () => {
    const start = Math.ceil((Date.now() + 2 * HOUR) / 60_000) * 60_000;
    const dir = manifestDir(w, 'scheduled', {
      'vpc.yaml': VPC_YAML,
      'ws.yaml': workspaceYaml('ws-a', 'scheduled'),
      'gpu.yaml': instanceYaml('ws-a', 'gpu-1'),
      'cpu.yaml': instanceYaml('ws-a', 'cpu-1'),
      'schedule.yaml': scheduleYaml(start),
    });
    const env = { PLATCTL_BASE_URL: w.emulator.url, PLATCTL_API_KEY: w.apiKey };
    const state = join(w.dir, 'cli-state.db');
    const cli = (...args: string[]) =>
      runCli([...args, dir, '--state', state], { env, timeoutMs: 90_000 });

    const applied = await cli('apply', '--auto-approve');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(
      /power stop \(power-state: compute instance platform\/ws-a\/gpu-1 should be powered off; publishing powers it on \(power schedule nights-off: outside its periods until /,
    );
    expect((await api('GET', GPU)).status?.powerState).toBe('off');
    expect((await api('GET', CPU)).status?.powerState).toBe('on');
    expect(await powerActions(0)).toEqual(['gpu-1/action/stop']);

    // plan: nothing to do, and the Schedules section says what comes next
    const plan = await cli('plan', '--detailed-exitcode');
    expect(plan.code, plan.stderr).toBe(0);
    const at = (t: number) => new Date(t).toISOString().slice(0, 16);
    // off 23 hours a day: 730 × 23/24 hours a month, 8 GPUs each
    expect(plan.stdout).toContain(
      `Schedules:\n  ComputeInstance/platform/ws-a/gpu-1: off now (power schedule nights-off: outside its periods until ${at(start)}+00:00); next on ${at(start)}+00:00, off ${at(start + HOUR)}+00:00; saves ≈ 5,596.67 GPU-h/month (699.58 h off)\n`,
    );
    const json = JSON.parse((await cli('plan', '--output', 'json')).stdout);
    expect(json.schedules[0]).toMatchObject({
      key: 'ComputeInstance/platform/ws-a/gpu-1',
      schedule: 'PowerSchedule/nights-off',
      state: 'off',
      next: [
        { at: new Date(start).toISOString(), state: 'on' },
        { at: new Date(start + HOUR).toISOString(), state: 'off' },
      ],
    });

    // powered on by hand inside the off period: drift, corrected by the next apply
    const before = await w.last();
    await api('POST', `${GPU}/action/start`);
    const drifted = await cli('plan');
    expect(drifted.stdout).toMatch(/power stop \(drift: .*gpu-1 should be powered off, is on/);
    const healed = await cli('apply', '--auto-approve');
    expect(healed.code, healed.stderr).toBe(0);
    expect((await api('GET', GPU)).status?.powerState).toBe('off');
    expect(await powerActions(before)).toEqual(['gpu-1/action/start', 'gpu-1/action/stop']);
  }, 120_000);
});
