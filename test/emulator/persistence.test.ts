import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { MemoryStore } from '../../src/emulator/store/memory-store.js';
import { SqliteStore } from '../../src/emulator/store/sqlite-store.js';
import type { EmulatorStore } from '../../src/emulator/store/types.js';
import { clusterBody, INFRA, startHarness } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'platctl-emu-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['memory', () => new MemoryStore()],
  ['sqlite', () => new SqliteStore(join(dir, `store-${Math.random()}.db`))],
] as [string, () => EmulatorStore][])('%s store', (_name, make) => {
  it('keeps deep copies, lists by prefix in key order, and rolls back failed transactions', () => {
    const store = make();
    const value = { a: [1] };
    store.put('c', 'p/b', value);
    value.a.push(2);
    store.put('c', 'p/a', { a: [0] });
    store.put('c', 'p%_x', { a: [9] });
    store.put('c', 'q/a', { a: [3] });
    expect(store.get('c', 'p/b')).toEqual({ a: [1] });
    expect(store.list('c', 'p/')).toEqual([{ a: [0] }, { a: [1] }]);
    expect(store.list('c')).toHaveLength(4);
    expect(() =>
      store.transaction(() => {
        store.put('c', 'p/c', { a: [4] });
        store.delete('c', 'p/a');
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(store.get('c', 'p/c')).toBeUndefined();
    expect(store.get('c', 'p/a')).toEqual({ a: [0] });
    expect(store.delete('c', 'p/a')).toBe(true);
    expect(store.delete('c', 'p/a')).toBe(false);
    store.clear();
    expect(store.list('c')).toEqual([]);
    store.close();
  });
});

describe('--data persistence', () => {
  it('keeps state, advanced clock and seeded keys across a restart', async () => {
    const dataFile = join(dir, 'emu.db');
    const first = await startHarness({ dataFile });
    const u = await first.newUser('persist@acme.example');
    expect(
      (
        await first.call('POST', `${INFRA}/platform/clusters`, clusterBody('kept'), {
          header: 'X-API-KEY',
        })
      ).status,
    ).toBe(201);
    await first.advance(7200);
    const before = first.emu.clock.now();
    await first.close();

    const second = await startHarness({ dataFile });
    try {
      expect(second.emu.clock.now()).toBeGreaterThanOrEqual(before);
      const read = await second.call('GET', `${INFRA}/platform/clusters/kept`, undefined, {
        header: 'X-API-KEY',
      });
      expect(read.status).toBe(200);
      expect(read.body.status.status).toBe('ready');
      expect(
        (await second.call('GET', '/auth/v1/projects/', undefined, { key: u.key })).status,
      ).toBe(200);
      expect((await second.call('GET', '/auth/v1/users/?q=persist')).body.count).toBe(1);
    } finally {
      await second.close();
    }
    const third = await startHarness({ dataFile, apiKey: 'a-new-admin-key-0002' });
    try {
      expect((await third.call('GET', '/auth/v1/users/')).status).toBe(401);
      expect(
        (await third.call('GET', '/auth/v1/users/', undefined, { key: 'a-new-admin-key-0002' }))
          .status,
      ).toBe(200);
      expect(
        (await third.call('GET', '/auth/v1/projects/', undefined, { key: u.key })).status,
      ).toBe(200);
    } finally {
      await third.close();
    }
  });
});

describe('--seed', () => {
  it('replaces the built-in seed, and a bad seed fails with the field named', async () => {
    const good = join(dir, 'seed.yaml');
    writeFileSync(
      good,
      [
        'partnerId: p-1',
        'orgs: [{id: org-x, name: x}]',
        'projects: [{id: prj-only, name: only, org: org-x}]',
        'groups: [{id: grp-org-admins, name: Organization Admins, type: SYSTEM}]',
        'roles: []',
        'users: [{id: u-1, username: root@x.example, first_name: R, last_name: T, user_type: API, org: org-x, groups: [grp-org-admins], admin: true}]',
        'profiles: []',
      ].join('\n'),
    );
    const h = await startHarness({ seedFile: good });
    try {
      const projects = await h.call('GET', '/auth/v1/projects/');
      expect(projects.body.items.map((p: { name: string }) => p.name)).toEqual(['only']);
    } finally {
      await h.close();
    }
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'partnerId: p\norgs: []\nprojects: [{id: 1}]\n');
    await expect(startEmulator({ apiKey: 'k-1234', seedFile: bad })).rejects.toThrow(
      /seed .*bad\.yaml is invalid: .*projects\/0/,
    );
  });
});
