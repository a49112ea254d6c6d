import { describe, expect, it } from 'vitest';
import { resolveConnection } from '../../src/providers/client/connection.js';
import { createProjectDirectory } from '../../src/providers/project-directory.js';
import { resolveSecret } from '../../src/providers/secrets.js';
import { testClient, useNock, v1 } from './helpers.js';

useNock();

const KEY = 'file-key-9f8e7d6c5b4a';
const files = (map: Record<string, string>) => async (p: string) => {
  if (p in map) return map[p]!;
  throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
};
const CONFIG = `profiles:
  default:
    baseUrl: https://default.example
    apiKeyFrom: { env: DEFAULT_KEY }
  staging:
    baseUrl: https://staging.example
    apiKeyFrom: { file: /keys/staging }
    groups: { paas: paas.staging.io }
  plain:
    baseUrl: https://plain.example
    apiKey: ${KEY}
`;

describe('resolveConnection', () => {
  it('prefers flags, then the environment', async () => {
    const env = { PLATCTL_BASE_URL: 'https://env.example', PLATCTL_API_KEY: 'env-key-1234' };
    expect(
      await resolveConnection({ env, flags: { apiKey: 'flag-key-1234' }, readFile: files({}) }),
    ).toMatchObject({
      baseUrl: 'https://env.example',
      apiKey: 'flag-key-1234',
    });
  });

  it('reads --api-key-file before the environment', async () => {
    const c = await resolveConnection({
      env: { PLATCTL_BASE_URL: 'https://env.example', PLATCTL_API_KEY: 'env-key-1234' },
      flags: { apiKeyFile: '/k' },
      readFile: files({ '/k': 'file-key-5678\n' }),
    });
    expect(c).toMatchObject({
      apiKey: 'file-key-5678',
      source: 'PLATCTL_BASE_URL, key from --api-key-file',
    });
  });

  it('reads the default profile from ~/.config/platctl/config.yaml', async () => {
    const c = await resolveConnection({
      env: { DEFAULT_KEY: 'dk-123456' },
      home: '/home/u',
      readFile: files({ '/home/u/.config/platctl/config.yaml': CONFIG }),
    });
    expect(c).toMatchObject({
      baseUrl: 'https://default.example',
      apiKey: 'dk-123456',
      warnings: [],
    });
  });

  it('reads a named profile from PLATCTL_CONFIG with its key file and groups', async () => {
    const c = await resolveConnection({
      env: { PLATCTL_CONFIG: '/etc/p.yaml', PLATCTL_PROFILE: 'staging' },
      readFile: files({ '/etc/p.yaml': CONFIG, '/keys/staging': 'stg-key-0001\n' }),
    });
    expect(c).toMatchObject({
      baseUrl: 'https://staging.example',
      apiKey: 'stg-key-0001',
      groups: { paas: 'paas.staging.io' },
    });
    expect(c.source).not.toContain('stg-key-0001');
  });

  it('accepts a plain key in the file with a warning that does not repeat it', async () => {
    const c = await resolveConnection({
      flags: { profile: 'plain', config: '/c.yaml' },
      env: {},
      readFile: files({ '/c.yaml': CONFIG }),
    });
    expect(c.apiKey).toBe(KEY);
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings[0]).toMatch(/plain apiKey/);
    expect(c.warnings.join()).not.toContain(KEY);
  });

  it('names what is missing, never a value', async () => {
    await expect(
      resolveConnection({ env: {}, home: '/nowhere', readFile: files({}) }),
    ).rejects.toThrow(/no platform address/);
    await expect(
      resolveConnection({
        env: { PLATCTL_BASE_URL: 'https://x.example' },
        home: '/nowhere',
        readFile: files({}),
      }),
    ).rejects.toThrow(/no API key/);
    await expect(
      resolveConnection({
        flags: { profile: 'nope', config: '/c.yaml' },
        env: {},
        readFile: files({ '/c.yaml': CONFIG }),
      }),
    ).rejects.toThrow('no profile nope in /c.yaml (profiles: default, staging, plain)');
    await expect(
      resolveConnection({
        flags: { profile: 'default', config: '/c.yaml' },
        env: {},
        readFile: files({ '/c.yaml': CONFIG }),
      }),
    ).rejects.toThrow('profile default: environment variable DEFAULT_KEY is not set or empty');
  });

  it('does not quote a broken config file (it may hold a key)', async () => {
    const broken = `profiles:\n  plain: {apiKey: ${KEY}\n`;
    const err = (await resolveConnection({
      flags: { config: '/c.yaml' },
      env: {},
      readFile: files({ '/c.yaml': broken }),
    }).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/not valid YAML/);
    expect(err.message).not.toContain(KEY);
    expect(err.cause).toBeUndefined();
  });
});

describe('resolveSecret', () => {
  it('reads env and files, naming the source on failure, never a value', async () => {
    expect(await resolveSecret({ env: 'PW' }, { env: { PW: 's3cr3t-pw' } })).toBe('s3cr3t-pw');
    expect(
      await resolveSecret({ file: '/pw' }, { readFile: files({ '/pw': 'from-file\n' }) }),
    ).toBe('from-file');
    expect(
      await resolveSecret(
        { file: '~/pw' },
        { home: '/home/u', readFile: files({ '/home/u/pw': 'tilde' }) },
      ),
    ).toBe('tilde');
    await expect(resolveSecret({ env: 'PW' }, { env: {} })).rejects.toThrow(
      'environment variable PW is not set or empty',
    );
    await expect(resolveSecret({ file: '/none' }, { readFile: files({}) })).rejects.toThrow(
      'cannot read secret file /none (ENOENT)',
    );
  });
});

describe('createProjectDirectory', () => {
  it('reads the projects list once and maps names to ids', async () => {
    const scope = v1()
      .get('/auth/v1/projects/')
      .query(true)
      .once()
      .reply(200, {
        count: 2,
        items: [
          { id: 'p-1', name: 'ml' },
          { id: 'p-2', name: 'platform' },
        ],
      });
    const projectId = createProjectDirectory(testClient());
    expect(await projectId('ml')).toBe('p-1');
    expect(await projectId('platform')).toBe('p-2');
    await expect(projectId('ghost')).rejects.toThrow(
      'project ghost is unknown to the platform or not visible to this API key (visible: ml, platform)',
    );
    expect(scope.isDone()).toBe(true);
  });
});
