import { type ApiKeyRecord, hashKey } from '../http/auth.js';
import type { EmulatorStore } from '../store/types.js';
import type { SeedData, SeedUser } from './seed-types.js';

/** A user account: collection `users`, key = id. */
export interface UserRecord
  extends Pick<SeedUser, 'id' | 'username' | 'first_name' | 'last_name' | 'user_type'> {
  readonly active: boolean;
  readonly organizationId: string;
  readonly createdAt: string;
}

/** A blueprint of one project: collection `blueprints`, key `<project>/<name>`. */
export interface BlueprintRecord {
  readonly name: string;
  readonly project: string;
  versions: { name: string; enabled: boolean }[];
  readonly addons: string[];
}

/**
 * Writes the seed into an empty store at emulated time `nowMs`, and records the hash of `apiKey`
 * for the seed's admin user. Runs in one transaction.
 */
export function applySeed(
  store: EmulatorStore,
  seed: SeedData,
  apiKey: string,
  nowMs: number,
): void {
  const at = new Date(nowMs).toISOString();
  const inProjects = (only?: string[]) =>
    seed.projects.filter((p) => !only || only.includes(p.name)).map((p) => p.name);
  store.transaction(() => {
    for (const org of seed.orgs) store.put('orgs', org.id, { ...org, partnerId: seed.partnerId });
    for (const p of seed.projects) {
      const { org, ...rest } = p;
      const record = {
        description: '',
        ...rest,
        organizationId: org,
        createdAt: at,
        modifiedAt: at,
      };
      store.put('projects', p.name, record);
    }
    for (const g of seed.groups) store.put('groups', g.id, g);
    for (const r of seed.roles) store.put('roles', r.id, r);
    for (const profile of seed.profiles) store.put('profiles', profile.name, profile);
    for (const u of seed.users) {
      const { org, groups, admin: _admin, ...rest } = u;
      const user: UserRecord = { ...rest, active: true, organizationId: org, createdAt: at };
      store.put('users', u.id, user);
      for (const groupId of groups ?? []) {
        store.put('memberships', `${u.id}/${groupId}`, { accountId: u.id, groupId });
      }
    }
    for (const c of seed.cloudcredentials) {
      for (const project of inProjects(c.projects)) {
        store.put('cloudcredentials', `${project}/${c.name}`, { name: c.name, project });
      }
    }
    for (const b of seed.blueprints) {
      for (const project of inProjects(b.projects)) {
        const record: BlueprintRecord = {
          name: b.name,
          project,
          versions: b.versions,
          addons: b.addons,
        };
        store.put('blueprints', `${project}/${b.name}`, record);
      }
    }
    store.put('meta', 'seed', { partnerId: seed.partnerId, seededAt: at });
  });
  grantAdminKey(store, seed, apiKey);
}

/**
 * Records the hash of `apiKey` for the seed's admin user, replacing any key a previous start
 * granted (so restarting `--data` with a new key retires the old one). The key is not stored.
 */
export function grantAdminKey(store: EmulatorStore, seed: SeedData, apiKey: string): void {
  const admin = seed.users.find((u) => u.admin) ?? seed.users[0];
  if (!admin) throw new Error('the seed has no user to hold the emulator API key');
  const hash = hashKey(apiKey);
  store.transaction(() => {
    for (const old of store.list<ApiKeyRecord & { seeded?: boolean }>('apikeys')) {
      if (old.seeded && old.hash !== hash) store.delete('apikeys', old.hash);
    }
    store.put('apikeys', hash, { hash, accountId: admin.id, seeded: true });
  });
}
