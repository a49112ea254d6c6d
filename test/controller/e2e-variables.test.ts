import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { type ControllerProcess, startControllerProcess } from './helpers/cli-process.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY } from './helpers/stack.js';

// Issue 24, item 6: the controller takes --var and --var-file as plan and apply do.

let root: string;
let emulator: RunningEmulator;
let ctl: ControllerProcess | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-ctl-vars-'));
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, admin: true });
});
afterEach(async () => {
  if (ctl && ctl.proc.child.exitCode === null) ctl.proc.child.kill('SIGKILL');
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

describe('platctl controller --var / --var-file (real process)', () => {
  it('substitutes variables from --var over a --var-file named relative to where it started', async () => {
    const manifests = join(root, 'manifests');
    await mkdir(manifests);
    const ref = (name: string) => ['$', '{', name, '}'].join(''); // a manifest's `${NAME}`
    await writeFile(
      join(manifests, 'ws.yaml'),
      workspaceYaml(`ws-${ref('SUFFIX')}`, ref('DESCRIPTION')),
    );
    await writeFile(join(root, 'vars.env'), 'SUFFIX=from-file\nDESCRIPTION=from the file\n');
    ctl = await startControllerProcess(
      [
        ...['--watch', 'manifests', '--state', 'state.db', '--interval', '10m'],
        ...['--var-file', 'vars.env', '--var', 'SUFFIX=vars'],
      ],
      { PLATCTL_BASE_URL: emulator.url, PLATCTL_API_KEY: API_KEY },
      root,
    );
    const s = await ctl.waitStatus((x) => x.lastAppliedRevision || x.lastError);
    expect(s.lastError ?? null, ctl.output()).toBeNull();
    const res = await fetch(`${emulator.url}${WORKSPACES}/ws-vars`, {
      headers: { 'x-api-key': API_KEY },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { metadata?: { description?: string } };
    expect(body.metadata?.description).toBe('from the file');
  });
});
