import { afterEach, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import {
  type PagingQuirks,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.js';
import type { ApiClient } from '../../src/model/api.js';
import { createApiClient } from '../../src/providers/client/api-client.js';
import { listProjects } from '../../src/providers/project-directory.js';
import { IncompleteListError, kubeList } from '../../src/providers/support/list.js';
import { listAccounts, lookupAccount } from '../../src/providers/user-directory.js';
import { keyHeaders } from '../helpers/key-header.js';

/**
 * The engine's lists over real HTTP against an emulator that pages like a stricter real platform
 * (issue 15): pages capped whatever `limit` asks, `offset` ignored. Every list is read whole, with
 * no duplicate and no miss, sending only the parameters each endpoint documents; a list that
 * cannot be read whole is an error, never a short list.
 */
const KEY = 'paging-test-admin-key-0007';
const WS = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';

interface Entry {
  method: string;
  path: string;
  query: Record<string, string>;
}

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function platform(
  paging?: PagingQuirks,
  workspaceCount = 7,
): Promise<{ api: ApiClient; journal: () => Promise<Entry[]> }> {
  emu = await startEmulator({ apiKey: KEY, admin: true, ...(paging ? { paging } : {}) });
  const url = emu.url;
  const api = createApiClient({ baseUrl: url, apiKey: KEY, timeoutMs: 5_000 });
  const post = async (path: string, body: unknown) =>
    (
      await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...keyHeaders(KEY) },
        body: JSON.stringify(body),
      })
    ).status;
  for (let i = 1; i <= workspaceCount; i++) {
    const metadata = { name: `ws-${i}`, project: 'platform' };
    expect(await post(WS, { apiVersion: 'paas.envmgmt.io/v1', kind: 'Workspace', metadata })).toBe(
      200,
    );
  }
  // three more users than the two seeded (the admin and jane.doe): five in all
  for (let i = 1; i <= 3; i++) {
    const account = {
      username: `u${i}@acme.example`,
      first_name: 'U',
      last_name: `${i}`,
      password: 'pw-123456',
      user_type: 'API',
    };
    expect(await post('/auth/v1/users/', { account })).toBe(201);
  }
  const journal = async () =>
    (
      (await (await emulatorControl(url, 'GET', '/_emulator/journal')).json()) as {
        entries: Entry[];
      }
    ).entries.filter((e) => e.method === 'GET');
  return { api, journal };
}

const workspaces = (api: ApiClient) =>
  kubeList<{ metadata: { name: string } }>(api, {
    path: WS,
    route: WS,
    auth: 'paas',
    operation: 'listing workspaces',
  });
const names = (items: { metadata: { name: string } }[]) => items.map((i) => i.metadata.name).sort();
const ALL_WS = ['ws-1', 'ws-2', 'ws-3', 'ws-4', 'ws-5', 'ws-6', 'ws-7'];

describe('lists against a platform that caps its pages', () => {
  it('reads every item by offset, sends no page size of its own and no offset to projects', async () => {
    const { api, journal } = await platform({ pageCap: 2 });
    expect(names(await workspaces(api))).toEqual(ALL_WS);
    const users = await listAccounts(api);
    expect(users.size).toBe(5); // the two seeded and three more
    // three projects, two a page, and the spec gives this list no offset: read from both ends
    // by name (test/e2e/project-list.test.ts: past both ends, an error)
    expect((await listProjects(api)).map((p) => p.name).sort()).toHaveLength(3);

    const gets = await journal();
    const queries = (path: string) => gets.filter((e) => e.path === path).map((e) => e.query);
    // the first page is the platform's default; then the rest of count, from what was seen
    expect(queries(WS)).toEqual([
      {},
      { offset: '2', limit: '5' },
      { offset: '4', limit: '3' },
      { offset: '6', limit: '1' },
    ]);
    expect(queries('/auth/v1/users/')).toEqual([
      {},
      { offset: '2', limit: '3' },
      { offset: '4', limit: '1' },
    ]);
    expect(queries('/auth/v1/projects/')).toEqual([
      {},
      { limit: '3' },
      { order: 'ASC', orderby: 'name', limit: '1000' },
      { order: 'DESC', orderby: 'name', limit: '1000' },
    ]);
  });
});

describe("a create's existence check", () => {
  it('searches the users list for its username in one request, not page by page', async () => {
    const { api, journal } = await platform({ pageCap: 2 });
    await expect(lookupAccount(api, 'u2@acme.example')).resolves.toMatchObject({
      username: 'u2@acme.example',
    });
    await expect(lookupAccount(api, 'nobody@acme.example')).resolves.toBeUndefined();
    const users = (await journal()).filter((e) => e.path === '/auth/v1/users/');
    expect(users.map((e) => e.query)).toEqual([
      { q: 'u2@acme.example' },
      { q: 'nobody@acme.example' },
    ]);
  });
});

describe('lists against a platform that ignores offset', () => {
  it('detects the repeated page and reads the list whole with limit = count', async () => {
    // more workspaces than the default page of 50, so a second request is needed
    const { api, journal } = await platform({ ignoreOffset: true }, 55);
    const items = await workspaces(api);
    expect(items).toHaveLength(55);
    expect(new Set(items.map((i) => i.metadata.name)).size).toBe(55);
    const gets = (await journal()).filter((e) => e.path === WS).map((e) => e.query);
    expect(gets).toEqual([{}, { offset: '50', limit: '5' }, { limit: '55' }]);
    // projects fit the default page: one request with no parameters at all
    await expect(listProjects(api)).resolves.toHaveLength(3);
    const projects = (await journal()).filter((e) => e.path === '/auth/v1/projects/');
    expect(projects.map((e) => e.query)).toEqual([{}]);
  });

  it('with a capped page as well: no duplicates, and an error instead of a short list', async () => {
    const { api, journal } = await platform({ ignoreOffset: true, pageCap: 3 });
    const err = await workspaces(api).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IncompleteListError);
    expect(String(err)).toContain('listing workspaces: the platform returned 3 of 7 items');
    expect(String(err)).toContain('ignores offset');
    const gets = (await journal()).filter((e) => e.path === WS);
    expect(gets.map((e) => e.query)).toEqual([{}, { offset: '3', limit: '4' }, { limit: '7' }]);
  });
});

describe('lists longer than the largest page', () => {
  it('asks for at most the largest page the API allows, so a long list is read whole', async () => {
    // 50 on the default first page, then more than the 1000 a `limit` may ask for
    const { api, journal } = await platform(undefined, 1_060);
    const items = await workspaces(api);
    expect(items).toHaveLength(1_060);
    const gets = (await journal()).filter((e) => e.path === WS).map((e) => e.query);
    expect(gets).toEqual([{}, { offset: '50', limit: '1000' }, { offset: '1050', limit: '10' }]);
  });
});
