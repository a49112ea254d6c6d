import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { DEFAULT_SEED } from '../../src/emulator/seed/default-seed.js';
import { createApiClient } from '../../src/providers/client/api-client.js';
import { listProjects } from '../../src/providers/project-directory.js';
import { IncompleteListError } from '../../src/providers/support/list.js';

/**
 * The projects list has limit, order and orderby but no offset, and a page stops at 1,000: a
 * platform of more projects is read from both ends by name, over real HTTP, and one longer than
 * both ends together is an error, never a short list.
 */
const KEY = 'project-list-test-admin-key-01';
let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function platformWith(extra: number) {
  const dir = mkdtempSync(join(tmpdir(), 'platctl-projects-'));
  const seedFile = join(dir, 'seed.yaml');
  const projects = Array.from({ length: extra }, (_, i) => {
    const name = `p-${String(i).padStart(5, '0')}`;
    return { id: `prj-${name}`, name, org: 'org-acme' };
  });
  writeFileSync(
    seedFile,
    stringify({ ...DEFAULT_SEED, projects: [...DEFAULT_SEED.projects, ...projects] }),
  );
  emu = await startEmulator({ apiKey: KEY, admin: true, seedFile });
  const api = createApiClient({ baseUrl: emu.url, apiKey: KEY, timeoutMs: 10_000 });
  const gets = async () =>
    (
      (await (await emulatorControl(emu!.url, 'GET', '/_emulator/journal')).json()) as {
        entries: { method: string; path: string; query: Record<string, string> }[];
      }
    ).entries.filter((e) => e.method === 'GET' && e.path === '/auth/v1/projects/');
  // what the key may see, as the platform counts it (one seeded project is another org's)
  const first = await api.request<{ count: number }>({
    method: 'GET',
    path: '/auth/v1/projects/',
    auth: 'identity',
    operation: 'counting projects',
  });
  expect(first.body?.count).toBeGreaterThan(extra);
  return { api, gets, total: first.body!.count };
}

describe('the projects list past one page of 1,000', { timeout: 60_000 }, () => {
  it('is read whole from both ends by name, each project once', async () => {
    const { api, gets, total } = await platformWith(1_500);
    const projects = await listProjects(api);
    expect(projects).toHaveLength(total);
    expect(new Set(projects.map((p) => p.id)).size).toBe(total);
    expect((await gets()).map((e) => e.query)).toEqual([
      {}, // the count above
      {},
      { limit: '1000' },
      { order: 'ASC', orderby: 'name', limit: '1000' },
      { order: 'DESC', orderby: 'name', limit: '1000' },
    ]);
  });

  it('longer than both ends together: an error naming the shortfall, not a short list', async () => {
    const { api, total } = await platformWith(2_100);
    const err = await listProjects(api).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IncompleteListError);
    expect(String(err)).toContain(`listing projects: the platform returned 2000 of ${total} items`);
  });
});
