import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manifestEnv, validateManifests } from '../../src/controller/engine/manifest-loading.js';
import { workspaceYaml } from './helpers/platform-yaml.js';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

/** `${NAME}` as the manifest loader spells a variable. */
const ref = (name: string) => `\${${name}}`;

describe('manifests under the controller', () => {
  it('cannot read the controller secrets through variable substitution', async () => {
    process.env.PLATCTL_API_KEY = 'key-must-not-reach-a-manifest';
    process.env.PLATCTL_GIT_TOKEN = 'token-must-not-reach-a-manifest';
    process.env.PLATCTL_VAR_TEAM_NAME = 'ml';
    expect(manifestEnv().PLATCTL_API_KEY).toBeUndefined();
    expect(manifestEnv().PLATCTL_GIT_TOKEN).toBeUndefined();
    expect(manifestEnv().PLATCTL_VAR_TEAM_NAME).toBe('ml');
    const dir = await mkdtemp(join(tmpdir(), 'platctl-env-'));
    try {
      await writeFile(join(dir, 'ok.yaml'), workspaceYaml(`ws-${ref('TEAM_NAME')}`, 'x'));
      expect(await validateManifests(dir)).toMatchObject({ ok: true, manifestCount: 1 });
      await writeFile(join(dir, 'leak.yaml'), workspaceYaml('ws-b', ref('PLATCTL_API_KEY')));
      const r = await validateManifests(dir);
      expect(r.ok).toBe(false);
      expect(r.diagnostics.map((d) => d.code)).toContain('refused-variable');
      expect(JSON.stringify(r)).not.toContain('key-must-not-reach-a-manifest');
      expect(r.diagnostics.find((d) => d.code === 'refused-variable')?.at).toMatch(
        /^leak\.yaml:\d+:\d+$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
