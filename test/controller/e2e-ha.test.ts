import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { createRunPorts } from '../../src/reconcile/default-ports.js';
import { reconcile } from '../../src/reconcile/run.js';
import { commitFiles } from './helpers/git-remote.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY, get, nextStep } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

const stack = useStack();

const PLATFORM = readFileSync(
  new URL('../../examples/manifests/10-platform.yaml', import.meta.url),
  'utf8',
);

async function waitFor(pred: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('one writer per state store', () => {
  it('a second controller stands by (readyz 503), then takes over when the first stops', async () => {
    commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-a', 'one') }, 'ws-a');
    const a = await stack.controller();
    await nextStep(a, (o) => o.result === 'succeeded');
    const b = await stack.controller();
    await waitFor(() => b.status.role === 'standby');
    expect((await get(b, '/readyz')).status).toBe(503);
    expect((await get(a, '/readyz')).status).toBe(200);
    expect(b.status.leaseHolder).toMatch(/^pid \d+ on /);
    // what b shows was restored from the shared state store: a's run, not one of its own
    expect(b.status.lastRunAt).toBe(a.status.lastRunAt);

    const sha2 = commitFiles(
      stack.remote,
      { 'platform/ws2.yaml': workspaceYaml('ws-b', 'two') },
      'ws-b',
    );
    const tookOver = nextStep(b, (o) => o.result === 'succeeded');
    await a.stop();
    await tookOver;
    expect(b.status.role).toBe('leader');
    expect(b.status.lastAppliedRevision).toBe(sha2);
    expect((await get(b, '/readyz')).status).toBe(200);
  });
});

describe('shutdown during an apply', () => {
  it('finishes and records the running action, then a restart converges with no duplicate', async () => {
    commitFiles(stack.remote, { 'platform/platform.yaml': PLATFORM }, 'platform');
    const a = await stack.controller();
    const journal = () => stack.journal();
    const isServiceCreate = (e: { method: string; path: string }) =>
      e.method === 'POST' && /\/projects\/platform\/services$/.test(e.path);
    const isPublish = (e: { method: string; path: string }) =>
      e.method === 'POST' && /\/services\/vpc-platform\/publish$/.test(e.path);
    // wait until the VPC is publishing (30 s on the emulator's clock): the run is mid-apply
    await waitFor(async () => (await journal()).some(isPublish));
    const stopped = a.stop(); // what SIGTERM does
    await waitFor(() => a.status.role === 'stopping');
    await emulatorControl(stack.emulator.url, 'POST', '/_emulator/clock/advance', { seconds: 60 });
    await stopped;
    expect(a.status.lastResult).toBe('interrupted');
    const computeCreates = (await journal()).filter(
      (e) => e.method === 'POST' && /computeinstances$/.test(e.path),
    );
    expect(computeCreates).toEqual([]); // no new action started after the stop

    const b = await stack.controller();
    // compute provisioning takes 300 s of emulator time: keep the clock moving while b applies
    const ticker = setInterval(() => {
      void emulatorControl(stack.emulator.url, 'POST', '/_emulator/clock/advance', {
        seconds: 120,
      });
    }, 50);
    try {
      await nextStep(b, (o) => o.result === 'succeeded', 20_000);
    } finally {
      clearInterval(ticker);
    }
    const entries = await journal();
    expect(entries.filter(isServiceCreate)).toHaveLength(1);
    expect(entries.filter(isPublish)).toHaveLength(1);
    expect(
      entries.filter(
        (e) => e.method === 'POST' && /computeinstances$/.test(e.path) && e.status < 300,
      ),
    ).toHaveLength(1);
    expect(b.status.inventory).toEqual(
      expect.arrayContaining([
        'Service/platform/vpc-platform',
        'Workspace/platform/shared-services',
        'ComputeInstance/platform/shared-services/h100-inference',
      ]),
    );
  });
});

describe('a CLI apply while the controller leads', () => {
  it('fails with a message naming the controller as the holder, and changes nothing', async () => {
    commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-a', 'one') }, 'ws-a');
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    const dir = join(stack.root, 'cli-manifests');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ws.yaml'), workspaceYaml('ws-cli', 'from the CLI'));
    const ports = createRunPorts({
      baseUrl: stack.emulator.url,
      apiKey: API_KEY,
      statePath: join(stack.root, 'state.db'),
    });
    try {
      const err = await reconcile({ paths: [dir], mode: 'apply' }, ports).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'locked' });
      expect(String((err as Error).message)).toMatch(/controller:/);
    } finally {
      await ports.close();
    }
    const live = await stack.api(
      'GET',
      '/apis/paas.envmgmt.io/v1/projects/platform/workspaces/ws-cli',
    );
    expect(live.status).toBe(404);
  });
});
