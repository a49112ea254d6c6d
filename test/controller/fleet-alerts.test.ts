import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationConfig } from '../../src/controller/notify/config.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.js';
import { createStack, nextStep, type Stack } from './helpers/stack.js';
import { until } from './helpers/until.js';

// An alert is sent once per condition across a failover: what the notifications remember of
// the alerts sent is saved with the status and taken up by the replica that leads next.

let stack: Stack;
let rx: Receiver;
let schema: TestSchema;
beforeEach(async () => {
  if (!postgresUrl) return;
  stack = await createStack();
  rx = await startReceiver();
  schema = await testSchema('alerts');
});
afterEach(async () => {
  await stack?.close();
  await rx?.close();
  await schema?.drop();
});

const notifications = (): NotificationConfig => ({
  providers: [{ name: 'hook', type: 'webhook', url: `${rx.url}/hook` }],
});
const alert = (kind: string, recovered?: string) => (r: Received) =>
  r.json?.kind === kind && (recovered === undefined || r.json.recovered === recovered);
const count = (kind: string, revision?: string) =>
  rx.received.filter(
    (r) => r.json?.kind === kind && (revision === undefined || r.json.revision === revision),
  ).length;

describe.skipIf(!postgresUrl)('alerts across a failover (PostgreSQL)', () => {
  it('a failed run, its recovery and each applied revision are alerted exactly once', async () => {
    const replica = () =>
      stack.controller({
        statePath: schema.url,
        leaseTtlMs: 3000,
        notifications: notifications(),
      });
    const one = commitFiles(
      stack.remote,
      { 'platform/ws.yaml': workspaceYaml('ws-a', 'one') },
      'one',
    );
    const a = await replica();
    await nextStep(a, (o) => o.result === 'succeeded');
    await rx.waitFor(alert('revision-applied'));
    // b starts (and reads the store) now; it leads only after a sent more alerts
    const b = await replica();
    await until('b stands by', () => b.status.role === 'standby');

    await stack.api('POST', '/_emulator/faults', { path: WORKSPACES, method: 'POST', status: 500 });
    const two = commitFiles(
      stack.remote,
      { 'platform/ws.yaml': workspaceYaml('ws-a', 'two') },
      'two',
    );
    const failed = nextStep(a, (o) => o.revision === two);
    a.loop.trigger('test');
    expect((await failed).result).toBe('failed');
    await rx.waitFor(alert('run-failed'));

    // a goes; b leads and fails the same way on the same revision: nothing new to say
    const takeover = nextStep(b);
    await a.stop();
    expect((await takeover).result).toBe('failed');
    await stack.api('DELETE', '/_emulator/faults');
    for (let i = 0; i < 50 && b.status.lastResult !== 'succeeded'; i++) {
      const step = nextStep(b);
      b.loop.trigger('test');
      await step;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(b.status.lastAppliedRevision).toBe(two);
    // alerts leave in order: once the recovery arrived, every alert b sent before it did too
    await rx.waitFor(alert('recovered', 'run-failed'));
    await rx.waitFor((r) => alert('revision-applied')(r) && r.json.revision === two);
    expect(count('run-failed')).toBe(1);
    expect(count('revision-applied', one)).toBe(1);
    expect(count('revision-applied', two)).toBe(1);
    expect(rx.received.filter(alert('recovered', 'run-failed'))).toHaveLength(1);
  }, 120_000);
});
