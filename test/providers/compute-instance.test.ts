import { describe, expect, it } from 'vitest';
import { computeInstanceProvider as provider } from '../../src/providers/compute-instance.js';
import { act, instance, loaded } from './fixtures.js';
import { PAAS, testClient, testPorts, useNock, v1 } from './helpers.js';

useNock();

const P = `${PAAS}/projects/ml`;
const I = `${P}/workspaces/dev/computeinstances`;
const detail = (status: string, powerState?: string) => ({
  ...instance(),
  metadata: { name: 'gpu-1', project: 'ml', workspace: 'dev', id: 'uuid', createdAt: 'now' },
  spec: {
    ...instance().spec,
    variables: [
      ...instance().spec.variables,
      { name: 'node_os_image', valueType: 'text', value: 'ubuntu' },
    ].reverse(),
  },
  status: {
    status,
    ...(powerState ? { powerState } : {}),
    output: { node_login_password: { value: '********' } },
  },
});
const key = 'ComputeInstance/ml/dev/gpu-1';

describe('compute instance adapter: observe', () => {
  it('lists names, then reads only the instances in scope', async () => {
    const scope = v1()
      .get(`${P}/computeinstances`)
      .query({ computeType: 'baremetal' })
      .reply(200, {
        metadata: { count: 2 },
        items: [
          {
            kind: 'ComputeInstance',
            metadata: { name: 'gpu-1', project: 'ml', workspace: 'dev' },
            status: { status: 'success' },
          },
          {
            kind: 'ComputeInstance',
            metadata: { name: 'other', project: 'ml', workspace: 'dev' },
            status: { status: 'success' },
          },
        ],
      })
      .get(`${I}/gpu-1`)
      .query({ computeType: 'baremetal' })
      .reply(200, detail('success', 'on'));
    const live = await provider.observe(
      { desired: [loaded(instance())], inventory: [], projects: ['ml'] },
      testPorts(testClient()),
    );
    expect(scope.isDone()).toBe(true);
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ key, status: 'success', powerState: 'on' });
    expect(JSON.stringify(live[0]!.body)).not.toMatch(/uuid|createdAt|\*\*\*\*/);
    // Unmanaged server-side variables and reordering are not differences.
    expect(provider.plan({ key, desired: instance(), live: live[0]! })).toEqual([]);
  });
});

describe('compute instance adapter: execute', () => {
  it('creates with fail-on-exists, publishes, waits for success', async () => {
    const scope = v1()
      .post(I, (b) => b.metadata.annotations === undefined && b.spec.computeType === 'baremetal')
      .query({ 'fail-on-exists': 'true' })
      .reply(201, { status: 'Success', message: 'created', name: 'gpu-1' })
      .post(`${I}/gpu-1/publish`)
      .reply(202, { status: 'Accepted' })
      .get(`${I}/gpu-1`)
      .query({ computeType: 'baremetal' })
      .reply(200, detail('provisioning'))
      .get(`${I}/gpu-1`)
      .query({ computeType: 'baremetal' })
      .reply(200, detail('success', 'on'));
    const ports = testPorts(testClient());
    const actions = provider.plan({ key, desired: instance() });
    expect(actions.map((a) => a.type)).toEqual(['create', 'publish']);
    for (const a of actions) await provider.execute(act(a), ports);
    expect(scope.isDone()).toBe(true);
    expect(ports.lines).toEqual(['waiting for compute instance ml/dev/gpu-1: provisioning, 0s']);
  });

  it('sends a power action URL-encoded with an empty body and waits for the power state', async () => {
    const scope = v1()
      .post(`${I}/gpu-1/action/stop`, {})
      .reply(200, { status: 'Success' })
      .get(`${I}/gpu-1`)
      .reply(200, detail('success', 'off'));
    const live = {
      key,
      ref: { kind: 'ComputeInstance' as const, name: 'gpu-1', project: 'ml', workspace: 'dev' },
      body: { ...instance(), metadata: { name: 'gpu-1', project: 'ml', workspace: 'dev' } },
      status: 'success',
      powerState: 'on' as const,
    };
    const [stop] = provider.plan({ key, desired: instance('6', 'off'), live });
    expect(stop).toMatchObject({
      type: 'power',
      powerAction: 'stop',
      reason: { code: 'power-state' },
    });
    await provider.execute(act(stop!), testPorts(testClient()));
    expect(scope.isDone()).toBe(true);
    const reset = v1().post(`${I}/gpu-1/action/Power%20reset`, {}).reply(200, {});
    await provider.execute(
      act({ ...stop!, powerAction: 'Power reset' } as never),
      testPorts(testClient()),
    );
    expect(reset.isDone()).toBe(true);
  });

  it('deletes and waits until the instance is gone', async () => {
    const scope = v1()
      .delete(`${I}/gpu-1`)
      .reply(202, { status: 'Accepted' })
      .get(`${I}/gpu-1`)
      .reply(200, detail('deleting'))
      .get(`${I}/gpu-1`)
      .reply(404, { code: 'not_found' });
    const live = {
      key,
      ref: { kind: 'ComputeInstance' as const, name: 'gpu-1', project: 'ml', workspace: 'dev' },
      body: {},
      status: 'success',
    };
    const [del] = provider.plan({ key, live });
    const ports = testPorts(testClient());
    await provider.execute(act(del!), ports);
    expect(scope.isDone()).toBe(true);
    expect(ports.lines).toEqual([
      'waiting for deletion of compute instance ml/dev/gpu-1: deleting, 0s',
    ]);
  });

  it('stops waiting when the run is interrupted', async () => {
    const controller = new AbortController();
    v1()
      .post(`${I}/gpu-1/publish`)
      .reply(202, {})
      .get(`${I}/gpu-1`)
      .query(true)
      .reply(200, detail('provisioning'));
    const ports = testPorts(testClient(), {
      signal: controller.signal,
      progress: () => controller.abort(),
    });
    const publish = provider.plan({ key, desired: instance() })[1]!;
    await expect(provider.execute(act(publish), ports)).rejects.toMatchObject({ code: 'aborted' });
  });
});
