import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

/**
 * The projects list has no offset in the spec, so an offset there is an unknown parameter and is
 * ignored; the `paging` option makes every list page like a stricter real platform.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const names = (body: { items: { name?: string; metadata?: { name: string } }[] }) =>
  body.items.map((i) => i.name ?? i.metadata?.name);
const WS = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';

async function workspaces(harness: Harness, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) {
    const metadata = { name: `ws-${i}`, project: 'platform' };
    const r = await harness.call('POST', WS, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata,
    });
    expect(r.status).toBe(200);
  }
}

describe('paging the spec does not define, and a stricter platform', () => {
  it('ignores offset on the projects list, as any parameter the spec does not give it', async () => {
    h = await startHarness();
    const all = await h.call('GET', '/auth/v1/projects/');
    const offset = await h.call('GET', '/auth/v1/projects/?offset=2');
    expect(offset.status).toBe(200);
    expect(names(offset.body)).toEqual(names(all.body));
    expect(names((await h.call('GET', '/auth/v1/projects/?limit=1')).body)).toHaveLength(1);
  });

  it('pageCap: no page is longer than the cap, whatever limit asks; count stays the total', async () => {
    h = await startHarness({ paging: { pageCap: 2 } });
    await workspaces(h, 5);
    const page = await h.call('GET', `${WS}?limit=50&order=ASC`);
    expect(names(page.body)).toEqual(['ws-1', 'ws-2']);
    expect(page.body.metadata).toEqual({ count: 5, limit: 2 });
    expect(names((await h.call('GET', `${WS}?offset=4&order=ASC`)).body)).toEqual(['ws-5']);
    expect((await h.call('GET', '/auth/v1/users/?limit=10')).body.limit).toBe(2);
  });

  it('ignoreOffset: every offset answers the first page', async () => {
    h = await startHarness({ paging: { ignoreOffset: true } });
    await workspaces(h, 3);
    const first = await h.call('GET', `${WS}?limit=2`);
    const second = await h.call('GET', `${WS}?limit=2&offset=2`);
    expect(names(second.body)).toEqual(names(first.body));
    expect(second.body.metadata.count).toBe(3);
  });
});
