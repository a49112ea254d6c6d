import { describe, expect, it } from 'vitest';
import { serviceProvider } from '../../src/providers/service.js';
import { workspaceProvider } from '../../src/providers/workspace.js';
import { act, loaded, service, workspace } from './fixtures.js';
import { connectionReset, PAAS, testClient, testPorts, useNock, v1 } from './helpers.js';

useNock();

const wsItem = (name: string) => ({
  apiVersion: 'paas.envmgmt.io/v1',
  kind: 'Workspace',
  metadata: { name, project: 'ml', id: `uuid-${name}`, createdAt: '2026-01-01T00:00:00.000000Z' },
});

describe('workspace adapter', () => {
  it('observes through the list, every page, keeping only what is in scope, normalized', async () => {
    const scope = v1()
      .get(`${PAAS}/projects/ml/workspaces`)
      .query({}) // the platform's default page: no page size of the engine's own
      .reply(200, {
        kind: 'WorkspaceList',
        metadata: { count: 1001, limit: 1000 },
        items: [wsItem('dev'), ...Array.from({ length: 999 }, (_, i) => wsItem(`w${i}`))],
      })
      .get(`${PAAS}/projects/ml/workspaces`)
      .query({ offset: '1000', limit: '1' })
      .reply(200, {
        kind: 'WorkspaceList',
        metadata: { count: 1001, limit: 1000 },
        items: [wsItem('old')],
      });
    const live = await workspaceProvider.observe(
      {
        desired: [loaded(workspace())],
        inventory: [{ kind: 'Workspace', name: 'old', project: 'ml' }],
        projects: ['ml', 'other'],
      },
      testPorts(testClient()),
    );
    expect(scope.isDone()).toBe(true);
    expect(live.map((l) => l.key).sort()).toEqual(['Workspace/ml/dev', 'Workspace/ml/old']);
    expect(live.find((l) => l.key === 'Workspace/ml/dev')?.body).toEqual({
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'dev', project: 'ml' },
    });
  });

  it('creates with fail-on-exists, without platctl-only metadata', async () => {
    const scope = v1()
      .post(`${PAAS}/projects/ml/workspaces`, (body) => {
        expect(body).toEqual({
          apiVersion: 'paas.envmgmt.io/v1',
          kind: 'Workspace',
          metadata: { name: 'dev', project: 'ml' },
        });
        return true;
      })
      .query({ 'fail-on-exists': 'true' })
      .reply(200, wsItem('dev'));
    const [create] = workspaceProvider.plan({ key: 'Workspace/ml/dev', desired: workspace() });
    await workspaceProvider.execute(act(create!), testPorts(testClient()));
    expect(scope.isDone()).toBe(true);
  });

  it('does not create twice when the first attempt was cut off but landed', async () => {
    const scope = v1()
      .post(`${PAAS}/projects/ml/workspaces`)
      .query(true)
      .replyWithError(connectionReset())
      .get(`${PAAS}/projects/ml/workspaces/dev`)
      .reply(200, wsItem('dev'));
    const [create] = workspaceProvider.plan({ key: 'Workspace/ml/dev', desired: workspace() });
    await workspaceProvider.execute(act(create!), testPorts(testClient()));
    expect(scope.isDone()).toBe(true);
  });

  it('reports a conflict as "409 creating workspace ml/dev: already exists"', async () => {
    v1()
      .post(`${PAAS}/projects/ml/workspaces`)
      .query(true)
      .reply(409, { status: 409, code: 'already_exists', message: 'already exists' });
    const [create] = workspaceProvider.plan({ key: 'Workspace/ml/dev', desired: workspace() });
    await expect(workspaceProvider.execute(act(create!), testPorts(testClient()))).rejects.toThrow(
      '409 creating workspace ml/dev: already exists',
    );
  });

  it('deletes, taking 404 as already gone', async () => {
    const scope = v1()
      .delete(`${PAAS}/projects/ml/workspaces/dev`)
      .reply(404, { code: 'not_found' });
    const live = {
      key: 'Workspace/ml/dev',
      ref: { kind: 'Workspace' as const, name: 'dev', project: 'ml' },
      body: {},
    };
    const [del] = workspaceProvider.plan({ key: live.key, live });
    await workspaceProvider.execute(act(del!), testPorts(testClient()));
    expect(scope.isDone()).toBe(true);
  });
});

describe('service adapter', () => {
  const svcItem = (status: string) => ({
    ...service(),
    metadata: { name: 'vpc', project: 'ml', id: 'x', createdAt: 'y' },
    spec: { ...service().spec, variables: [...service().spec.variables].reverse() },
    status: { status },
  });

  it('observes the list with status, variables as name/value', async () => {
    v1()
      .get(`${PAAS}/projects/ml/services`)
      .query(true)
      .reply(200, { metadata: { count: 1 }, items: [svcItem('deployed')] });
    const [live] = await serviceProvider.observe(
      { desired: [loaded(service())], inventory: [], projects: ['ml'] },
      testPorts(testClient()),
    );
    expect(live).toMatchObject({
      key: 'Service/ml/vpc',
      status: 'deployed',
      body: { metadata: { name: 'vpc', project: 'ml' } },
    });
    expect(serviceProvider.plan({ key: live!.key, desired: service(), live: live! })).toEqual([]);
  });

  it('creates, publishes and waits until deployed, reporting progress', async () => {
    const scope = v1()
      .post(`${PAAS}/projects/ml/services`)
      .reply(201, { metadata: { name: 'vpc', project: 'ml' }, status: { status: 'not_deployed' } })
      .post(`${PAAS}/projects/ml/services/vpc/publish`)
      .reply(202, { status: { status: 'deploying' } })
      .get(`${PAAS}/projects/ml/services/vpc`)
      .times(2)
      .reply(200, svcItem('deploying'))
      .get(`${PAAS}/projects/ml/services/vpc`)
      .reply(200, svcItem('deployed'));
    const ports = testPorts(testClient());
    for (const a of serviceProvider.plan({ key: 'Service/ml/vpc', desired: service() })) {
      await serviceProvider.execute(act(a), ports);
    }
    expect(scope.isDone()).toBe(true);
    expect(ports.lines).toEqual([
      'waiting for VPC service ml/vpc: deploying, 0s',
      'waiting for VPC service ml/vpc: deploying, 1s',
    ]);
  });

  it('fails when the VPC ends failed, and times out when it never deploys', async () => {
    const publish = act({
      type: 'publish',
      key: 'Service/ml/vpc',
      target: { kind: 'Service', name: 'vpc', project: 'ml' },
      desired: service(),
      reason: { code: 'not-deployed', message: '' },
      changes: [],
    });
    v1()
      .post(`${PAAS}/projects/ml/services/vpc/publish`)
      .reply(202, {})
      .get(`${PAAS}/projects/ml/services/vpc`)
      .reply(200, svcItem('failed'));
    await expect(serviceProvider.execute(publish, testPorts(testClient()))).rejects.toThrow(
      'VPC service ml/vpc: deployment failed',
    );
    v1()
      .post(`${PAAS}/projects/ml/services/vpc/publish`)
      .reply(202, {})
      .get(`${PAAS}/projects/ml/services/vpc`)
      .times(20)
      .reply(200, svcItem('deploying'));
    await expect(
      serviceProvider.execute(
        publish,
        testPorts(testClient(), { wait: { pollMs: 1000, timeoutMs: 5000 } }),
      ),
    ).rejects.toMatchObject({
      code: 'timeout',
      message: 'VPC service ml/vpc: still deploying after 5s',
    });
  });

  it('waits for a VPC already deploying: the 409 of its publish is not an error', async () => {
    const scope = v1()
      .post(`${PAAS}/projects/ml/services/vpc/publish`)
      .reply(409, { code: 'conflict', message: 'service vpc is deploying' })
      .get(`${PAAS}/projects/ml/services/vpc`)
      .reply(200, svcItem('deployed'));
    const live = {
      key: 'Service/ml/vpc',
      ref: { kind: 'Service' as const, name: 'vpc', project: 'ml' },
      body: {},
      status: 'deploying',
    };
    const [publish] = serviceProvider.plan({ key: live.key, desired: service(), live });
    await serviceProvider.execute(act(publish!), testPorts(testClient()));
    expect(scope.isDone()).toBe(true);
  });
});
