import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunningController } from '../../src/controller/controller.js';
import { commitFiles } from './helpers/git-remote.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import { control, get, nextStep, WEBHOOK_SECRET } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

/**
 * Webhooks filtered by event and branch, and the operations metrics, on a real controller with
 * the emulator and a bare git repository.
 */
const stack = useStack();

function signedHook(c: RunningController, event: string, body: unknown, delivery?: string) {
  const text = JSON.stringify(body);
  return fetch(`http://127.0.0.1:${c.address.port}/hooks/git`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      ...(delivery ? { 'x-github-delivery': delivery } : {}),
      'x-hub-signature-256': `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(text).digest('hex')}`,
    },
    body: text,
  });
}

describe('webhook filter', () => {
  it('runs for a push to the followed branch only; pings and other branches are ignored', async () => {
    commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-a', 'one') }, 'one');
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    const before = c.status.lastRunAt;
    const ping = await signedHook(c, 'ping', { zen: 'hello' });
    expect(ping.status).toBe(200);
    expect(await ping.json()).toMatchObject({ accepted: false });
    const other = await signedHook(c, 'push', { ref: 'refs/heads/feature' });
    expect(await other.json()).toMatchObject({ accepted: false, reason: /feature/ });
    await new Promise((r) => setTimeout(r, 150));
    expect(c.status.lastRunAt).toBe(before); // nothing ran
    const ran = nextStep(c);
    expect((await signedHook(c, 'push', { ref: 'refs/heads/main' })).status).toBe(202);
    await ran;
  });
});

describe('a replayed delivery', () => {
  it('is accepted once: the same X-GitHub-Delivery again asks for no run', async () => {
    commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-a', 'one') }, 'one');
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    const id = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
    const answers: number[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await signedHook(c, 'push', { ref: 'refs/heads/main' }, id);
      answers.push(r.status);
      if (i === 1) expect(await r.json()).toMatchObject({ accepted: false, reason: /duplicate/ });
    }
    expect(answers.filter((s) => s === 202)).toHaveLength(1);
    expect(answers.filter((s) => s === 200)).toHaveLength(49);
    const asked = stack.logs.filter((l) => /"event":"trigger".*"trigger":"webhook"/.test(l));
    expect(asked).toHaveLength(1);
    // another delivery is another push
    expect((await signedHook(c, 'push', { ref: 'refs/heads/main' }, `${id}-2`)).status).toBe(202);
  });
});

describe('operations metrics', () => {
  it('exports process and nodejs defaults, git fetch timings, and the suspended gauge', async () => {
    commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-a', 'one') }, 'one');
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    let text = (await get(c, '/metrics')).text;
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^platctl_git_fetch_duration_seconds_count\{outcome="ok"\} 1$/m);
    expect(text).toMatch(/^platctl_git_fetch_errors_total 0$/m);
    expect(text).toMatch(/^platctl_controller_suspended 0$/m);
    await control(c, 'POST', '/api/v1/suspend');
    const step = nextStep(c);
    await control(c, 'POST', '/api/v1/reconcile', {});
    await step;
    text = (await get(c, '/metrics')).text;
    expect(text).toMatch(/^platctl_controller_suspended 1$/m);
    // a reconcile without the source fetches nothing
    expect(text).toMatch(/^platctl_git_fetch_duration_seconds_count\{outcome="ok"\} 1$/m);
  });
});
