import type { ProfileRecord } from '../lookups.js';

/**
 * The seed: what a fresh (or reset) emulator contains. The built-in default is in
 * `default-seed.ts`; `--seed FILE` replaces it with a YAML document of this shape.
 */
export interface SeedData {
  readonly partnerId: string;
  readonly orgs: readonly { id: string; name: string }[];
  readonly projects: readonly { id: string; name: string; description?: string; org: string }[];
  readonly groups: readonly { id: string; name: string; type: string }[];
  readonly roles: readonly { id: string; name: string; scope: string; role_type: string }[];
  /** Users; the one with `admin: true` receives the emulator's `--api-key`. */
  readonly users: readonly SeedUser[];
  readonly profiles: readonly ProfileRecord[];
  /** Cloud credentials, created in the listed projects (every project when omitted). */
  readonly cloudcredentials: readonly { name: string; projects?: string[] }[];
  /** Blueprints, created in the listed projects (every project when omitted). */
  readonly blueprints: readonly SeedBlueprint[];
}

export interface SeedUser {
  readonly id: string;
  readonly username: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly user_type: 'CONSOLE' | 'API';
  readonly org: string;
  readonly groups?: string[];
  readonly admin?: boolean;
}

interface SeedBlueprint {
  readonly name: string;
  readonly versions: { name: string; enabled: boolean }[];
  readonly addons: string[];
  readonly projects?: string[];
}

const str = { type: 'string', minLength: 1 };
const obj = (required: string[], properties: Record<string, unknown>) => ({
  type: 'object',
  required,
  properties,
});

/** JSON Schema of {@link SeedData}, used to validate `--seed FILE`. */
export const SEED_SCHEMA = obj(
  ['partnerId', 'orgs', 'projects', 'groups', 'roles', 'users', 'profiles'],
  {
    partnerId: str,
    orgs: { type: 'array', items: obj(['id', 'name'], { id: str, name: str }) },
    projects: {
      type: 'array',
      items: obj(['id', 'name', 'org'], {
        id: str,
        name: str,
        org: str,
        description: { type: 'string' },
      }),
    },
    groups: {
      type: 'array',
      items: obj(['id', 'name', 'type'], { id: str, name: str, type: str }),
    },
    roles: {
      type: 'array',
      items: obj(['id', 'name', 'scope', 'role_type'], {
        id: str,
        name: str,
        scope: str,
        role_type: str,
      }),
    },
    users: {
      type: 'array',
      items: obj(['id', 'username', 'first_name', 'last_name', 'user_type', 'org'], {
        id: str,
        username: str,
        first_name: str,
        last_name: str,
        user_type: { enum: ['CONSOLE', 'API'] },
        org: str,
        groups: { type: 'array', items: str },
        admin: { type: 'boolean' },
      }),
    },
    profiles: {
      type: 'array',
      items: obj(['name', 'kind', 'billable', 'region', 'hardware'], {
        name: str,
        kind: { enum: ['baremetal', 'k8s', 'vm', 'service'] },
        billable: { type: 'boolean' },
        region: str,
        hardware: obj(
          [
            'cpu_count',
            'cpu_arch',
            'gpu_count',
            'gpu_model',
            'memory_size_gb',
            'storage_size_gb',
            'storage_type',
          ],
          {
            cpu_count: { type: 'integer', minimum: 0 },
            cpu_arch: { type: 'string' },
            gpu_count: { type: 'integer', minimum: 0 },
            gpu_model: { type: 'string' },
            memory_size_gb: { type: 'number', minimum: 0 },
            storage_size_gb: { type: 'number', minimum: 0 },
            storage_type: { type: 'string' },
          },
        ),
      }),
    },
    cloudcredentials: {
      type: 'array',
      items: obj(['name'], { name: str, projects: { type: 'array', items: str } }),
    },
    blueprints: {
      type: 'array',
      items: obj(['name', 'versions', 'addons'], {
        name: str,
        versions: {
          type: 'array',
          items: obj(['name', 'enabled'], { name: str, enabled: { type: 'boolean' } }),
        },
        addons: { type: 'array', items: str },
        projects: { type: 'array', items: str },
      }),
    },
  },
);
