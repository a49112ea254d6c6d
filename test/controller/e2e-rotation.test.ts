import { createHmac } from 'node:crypto';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { keyHeaders } from '../helpers/key-header.js';
import { type ControllerProcess, startControllerProcess } from './helpers/cli-process.js';
import { commitFiles, createGitRemote } from './helpers/git-remote.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY, CONTROL_TOKEN, WEBHOOK_SECRET } from './helpers/stack.js';

let root: string;
let emulator: RunningEmulator;
let ctl: ControllerProcess | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-rotate-'));
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, admin: true });
});
afterEach(async () => {
  if (ctl && ctl.proc.child.exitCode === null) ctl.proc.child.kill('SIGKILL');
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

const NEW_WEBHOOK_SECRET = 'webhook-secret-rotated-9d2e';
const NEW_CONTROL_TOKEN = 'control-token-rotated-4c8a';

/** Replaces a file the way a Secret volume does: a new file renamed over the old one. */
async function replaceFile(path: string, content: string): Promise<void> {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}

function push(c: ControllerProcess, secret: string) {
  const text = JSON.stringify({ ref: 'refs/heads/main' });
  return fetch(`http://127.0.0.1:${c.port}/hooks/git`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`,
    },
    body: text,
  });
}

describe('credential rotation without a restart (real controller process)', () => {
  it('uses the rotated API key, webhook secret and control token as soon as the files change; the old ones stop working', async () => {
    const remote = await createGitRemote(join(root, 'git'));
    commitFiles(remote, { 'platform/a.yaml': workspaceYaml('ws-a', 'one') }, 'one');
    const secrets = join(root, 'secrets');
    await mkdir(secrets);
    const file = (name: string) => join(secrets, name);
    await writeFile(file('api-key'), `${API_KEY}\n`);
    await writeFile(file('webhook-secret'), WEBHOOK_SECRET);
    await writeFile(file('control-token'), CONTROL_TOKEN);
    ctl = await startControllerProcess(
      [
        ...['--repo', remote.bare, '--path', 'platform/', '--interval', '10m'],
        ...['--state', join(root, 'state.db'), '--lease-ttl', '2s'],
        ...['--api-key-file', file('api-key'), '--webhook-secret-file', file('webhook-secret')],
        ...['--control-token-file', file('control-token')],
      ],
      { PLATCTL_BASE_URL: emulator.url },
    );
    const c = ctl;
    await c.waitStatus((s) => s.lastResult === 'succeeded');

    // rotate: the platform issues a new key and retires the old one; every file is replaced
    const rotated = await emulatorControl(emulator.url, 'POST', '/_emulator/apikeys/rotate', {
      apiKey: API_KEY,
    });
    const newKey = ((await rotated.json()) as { apiKey: string }).apiKey;
    await replaceFile(file('api-key'), `${newKey}\n`);
    await replaceFile(file('webhook-secret'), NEW_WEBHOOK_SECRET);
    await replaceFile(file('control-token'), NEW_CONTROL_TOKEN);
    const sha = commitFiles(remote, { 'platform/b.yaml': workspaceYaml('ws-b', 'two') }, 'two');

    // the old webhook secret is refused, the new one starts a run that the new key carries
    expect((await push(c, WEBHOOK_SECRET)).status).toBe(401);
    expect((await push(c, NEW_WEBHOOK_SECRET)).status).toBe(202);
    const s = await c.waitStatus((x) => x.lastAttemptedRevision === sha && x.nextRunInMs);
    expect(s.lastResult).toBe('succeeded');
    expect(s.lastAppliedRevision).toBe(sha);
    const ws = await fetch(
      `${emulator.url}/apis/paas.envmgmt.io/v1/projects/platform/workspaces/ws-b`,
      {
        headers: { ...keyHeaders(newKey) },
      },
    );
    expect(ws.status).toBe(200);

    // the control API takes only the new token
    expect((await c.http('/api/v1/status', { token: CONTROL_TOKEN })).status).toBe(401);
    expect((await c.http('/api/v1/status', { token: NEW_CONTROL_TOKEN })).status).toBe(200);

    c.proc.child.kill('SIGTERM');
    expect(await c.exited).toBe(0);
    const out = c.output();
    expect(out.match(/"event":"credential-reloaded"/g)?.length).toBe(3);
    for (const secret of [API_KEY, newKey, WEBHOOK_SECRET, NEW_WEBHOOK_SECRET, NEW_CONTROL_TOKEN]) {
      expect(out).not.toContain(secret);
    }
  });
});
