import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationConfig } from '../../src/controller/notify/config.js';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.js';
import { createStack, nextStep, type Stack } from './helpers/stack.js';

/**
 * Alerts from real run records (issue 9, notifications): a controller against the emulator and
 * a bare repository, a loopback webhook receiver. Each condition is alerted once while it lasts
 * and recovered once; a restart re-sends nothing already known.
 */
let stack: Stack;
let rx: Receiver;
beforeEach(async () => {
  stack = await createStack();
  rx = await startReceiver();
});
afterEach(async () => {
  await stack.close();
  await rx.close();
});

const notifications = (): NotificationConfig => ({
  providers: [{ name: 'hook', type: 'webhook', url: `${rx.url}/hook` }],
});
const kinds = () =>
  rx.received.map((r) => (r.json.recovered ? `recovered:${r.json.recovered}` : r.json.kind));
const alert = (kind: string, recovered?: string) => (r: Received) =>
  r.json?.kind === kind && (recovered === undefined || r.json.recovered === recovered);

/** Runs the controller once more and waits for that run. */
async function rerun(c: Awaited<ReturnType<Stack['controller']>>) {
  const step = nextStep(c);
  c.loop.trigger('test');
  return step;
}

const setDescription = (name: string, description: string) =>
  stack.api('POST', WORKSPACES, {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Workspace',
    metadata: { name, project: 'platform', description },
  });

describe('alerts from run records', () => {
  it('a failing run and drift left alone: each alerted once, each recovered once', async () => {
    commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-a', 'one') }, 'one');
    const c = await stack.controller({ selfHeal: false, notifications: notifications() });
    await nextStep(c, (o) => o.result === 'succeeded');
    await rx.waitFor(alert('revision-applied'));

    // a failing run, twice on the same revision
    await stack.api('POST', '/_emulator/faults', { path: WORKSPACES, method: 'POST', status: 500 });
    const two = commitFiles(
      stack.remote,
      { 'platform/ws.yaml': workspaceYaml('ws-a', 'two') },
      'two',
    );
    expect((await rerun(c)).result).toBe('failed');
    const failed = await rx.waitFor(alert('run-failed'));
    expect(failed.json).toMatchObject({
      severity: 'error',
      revision: two,
      resources: ['Workspace/platform/ws-a'],
    });
    expect(failed.json.details[0]).toMatch(/^Workspace\/platform\/ws-a: .*500/);
    expect((await rerun(c)).result).toBe('failed');
    await stack.api('DELETE', '/_emulator/faults');
    // ws-a backs off for 50-100 ms after its failures; rerun until it is tried again
    for (let i = 0; i < 50 && (await rerun(c)).result !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await rx.waitFor(alert('recovered', 'run-failed'));

    // drift, self-heal off: reported twice by runs, alerted once; recovered when undone
    await setDescription('ws-a', 'changed by hand');
    await rerun(c);
    const drift = await rx.waitFor(alert('drift-detected'));
    expect(drift.json).toMatchObject({
      severity: 'warning',
      resources: ['Workspace/platform/ws-a'],
    });
    await rerun(c);
    await setDescription('ws-a', 'two');
    await rerun(c);
    await rx.waitFor(alert('recovered', 'drift-detected'));
    expect(kinds()).toEqual([
      'revision-applied',
      'run-failed',
      'recovered:run-failed',
      'revision-applied',
      'drift-detected',
      'recovered:drift-detected',
    ]);
  });

  it('a held prune: alerted once, also across a restart, recovered once approved', async () => {
    const names = ['keep', 'old-1', 'old-2', 'old-3'];
    commitFiles(
      stack.remote,
      Object.fromEntries(names.map((n) => [`platform/${n}.yaml`, workspaceYaml(n, 'from-git')])),
      'four',
    );
    const first = await stack.controller({ maxDeletes: 2, notifications: notifications() });
    await nextStep(first, (o) => o.result === 'succeeded');
    commitFiles(
      stack.remote,
      { 'platform/old-1.yaml': null, 'platform/old-2.yaml': null, 'platform/old-3.yaml': null },
      'drop three',
    );
    await setDescription('keep', 'changed by hand');
    expect((await rerun(first)).result).toBe('prune-blocked');
    const held = await rx.waitFor(alert('prune-blocked'));
    expect(held.json.resources).toEqual([
      'Workspace/platform/old-1',
      'Workspace/platform/old-2',
      'Workspace/platform/old-3',
    ]);
    expect(held.json.details[0]).toBe(
      `approve with: platctl ctl approve-prune ${first.status.blockedPrune?.runId}`,
    );
    const healed = await rx.waitFor(alert('drift-detected'));
    expect(healed.json).toMatchObject({ severity: 'info', resources: ['Workspace/platform/keep'] });
    expect((await rerun(first)).result).toBe('prune-blocked');
    await first.stop();

    // a restart while the prune is still held sends nothing new
    const second = await stack.controller({ maxDeletes: 2, notifications: notifications() });
    expect((await nextStep(second)).result).toBe('prune-blocked');
    const approved = nextStep(second, (o) => o.result === 'succeeded');
    expect(await second.approvePrune(second.status.blockedPrune!.runId)).toBe(true);
    await approved;
    await rx.waitFor(alert('recovered', 'prune-blocked'));
    await rx.waitFor(alert('revision-applied'));
    await second.stop();
    expect(kinds()).toEqual([
      'revision-applied',
      'drift-detected',
      'prune-blocked',
      'recovered:prune-blocked',
      'revision-applied',
    ]);
  });

  it('a receiver that never answers holds up no run, and stop drops what it could not send', async () => {
    rx.answer = () => 0;
    commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-h', 'one') }, 'one');
    const c = await stack.controller({ notifications: notifications() });
    await nextStep(c, (o) => o.result === 'succeeded');
    await rx.waitFor(alert('revision-applied'));
    // more alerts queue up behind the hung request while runs go on
    for (const d of ['two', 'three']) {
      commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-h', d) }, d);
      expect((await rerun(c)).result).toBe('succeeded');
    }
    expect(c.status.lastAppliedRevision).toBeDefined();
    await c.stop();
    const counted = await c.metrics.registry.getSingleMetricAsString('platctl_notifications_total');
    expect(counted).toMatch(/platctl_notifications_total\{type="webhook",outcome="dropped"\} 3/);
    expect(stack.logs.some((l) => l.includes('"event":"notify-dropped"'))).toBe(true);
  });
});
