import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/state/index.js';
import { keyHeaders } from '../helpers/key-header.js';
import { type World, world, writes } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

describe('a create cut off by a crash', () => {
  it('is adopted by the next run instead of being sent again', async () => {
    // the crashed run had written its pending record and its POST had reached the platform
    const store = openStateStore(join(w.dir, 'state.db'));
    const ref = { kind: 'Workspace' as const, project: 'platform', name: 'shared-services' };
    await store.beginPending({
      key: 'Workspace/platform/shared-services',
      actionId: 'Workspace/platform/shared-services#create',
      ref,
      startedAt: 0,
    });
    await store.close();
    const res = await fetch(
      `${w.emulator.url}/apis/paas.envmgmt.io/v1/projects/platform/workspaces`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...keyHeaders(w.apiKey) },
        body: JSON.stringify({
          apiVersion: 'paas.envmgmt.io/v1',
          kind: 'Workspace',
          metadata: {
            name: 'shared-services',
            project: 'platform',
            displayName: 'Shared services',
            description: 'Inference and tooling run by the platform team',
          },
        }),
      },
    );
    expect(res.status).toBeLessThan(300);
    const before = await w.last();
    const r = await w.run({ mode: 'apply' });
    expect(r.status).toBe('applied');
    expect(
      r
        .plan!.actions.filter((a) => a.key === 'Workspace/platform/shared-services')
        .map((a) => a.type),
    ).toEqual(['noop']);
    expect(w.events).toContainEqual({ type: 'adopted', key: 'Workspace/platform/shared-services' });
    expect(
      writes(await w.journal(before)).filter((e) =>
        e.path.endsWith('/projects/platform/workspaces'),
      ),
    ).toEqual([]);
    const after = openStateStore(join(w.dir, 'state.db'));
    expect(await after.pending()).toEqual([]);
    expect(
      (await after.inventory()).find((e) => e.key === 'Workspace/platform/shared-services')
        ?.createdByPlatctl,
    ).toBe(true);
    await after.close();
  });
});
