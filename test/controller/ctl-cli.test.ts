import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { keyHeaders } from '../helpers/key-header.js';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';
import { commitFiles, createGitRemote } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY, CONTROL_TOKEN, GIT_TOKEN } from './helpers/stack.js';

/**
 * `platctl ctl` verbs against a real `platctl controller` process, the emulator and a bare git
 * repository: every verb over the control API, with the token from a file or the environment.
 */
const bin = PLATCTL_JS;

let root: string;
let emulator: RunningEmulator;
let child: ChildProcess | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-ctl-'));
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, admin: true });
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

/** Starts `platctl controller` as a real process with a control token file; resolves its port. */
async function startController(tokenFile: string, remote: string): Promise<number> {
  const args = [
    ...['controller', '--repo', remote, '--path', 'platform/', '--interval', '10m'],
    ...['--listen', '127.0.0.1:0', '--state', join(root, 'state.db'), '--prune'],
    ...['--max-deletes', '1', '--control-token-file', tokenFile],
  ];
  const proc = spawn(process.execPath, [bin, ...args], {
    env: {
      ...process.env,
      PLATCTL_BASE_URL: emulator.url,
      PLATCTL_API_KEY: API_KEY,
      PLATCTL_GIT_TOKEN: GIT_TOKEN,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let stderr = '';
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening: ${stderr}`)), 20_000);
    proc.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /"listen":"[^"]*:(\d+)"/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
}

/**
 * Runs `platctl ctl ...` through the CLI's own entry point in this process (the controller is the
 * real process; a process per verb would only add start-up time); resolves with the exit code and
 * output. `env` is set for the call only.
 */
async function ctl(args: string[], env: Record<string, string> = {}) {
  const saved = { ...process.env };
  const writes = { stdout: '', stderr: '' };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((c) => {
    writes.stdout += String(c);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c) => {
    writes.stderr += String(c);
    return true;
  });
  Object.assign(process.env, env);
  try {
    await main(['node', 'platctl', 'ctl', ...args]);
    const code = Number(process.exitCode ?? 0);
    return { code, ...writes };
  } finally {
    process.exitCode = undefined;
    out.mockRestore();
    err.mockRestore();
    for (const k of Object.keys(env)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

async function until<T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await get();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('platctl ctl (real controller process)', () => {
  it('drives every verb: status, diff, suspend, resume, reconcile, approve-prune, reset-backoff', async () => {
    const remote = await createGitRemote(join(root, 'git'));
    commitFiles(
      remote,
      {
        'platform/a.yaml': workspaceYaml('ws-a', 'a'),
        'platform/b.yaml': workspaceYaml('ws-b', 'b'),
        'platform/c.yaml': workspaceYaml('ws-c', 'c'),
      },
      'three workspaces',
    );
    const tokenFile = join(root, 'control-token');
    await writeFile(tokenFile, `${CONTROL_TOKEN}\n`);
    const port = await startController(tokenFile, remote.bare);
    const url = `http://127.0.0.1:${port}`;
    const withFile = ['--controller', url, '--token-file', tokenFile];
    const env = { PLATCTL_CONTROLLER_URL: url, PLATCTL_CONTROL_TOKEN: CONTROL_TOKEN };
    delete process.env.PLATCTL_CONTROLLER_URL;
    delete process.env.PLATCTL_CONTROL_TOKEN;

    const ready = await until(
      'the first apply',
      () => ctl(['status'], env),
      (r) => r.stdout.includes('3 Ready'),
    );
    expect(ready.code).toBe(0);
    expect(ready.stdout).toMatch(/RESOURCE\s+CONDITION\s+REASON/);
    expect(ready.stdout).toMatch(/Workspace\/platform\/ws-a\s+Ready\s+Applied/);
    expect(ready.stdout).not.toContain(CONTROL_TOKEN);

    const denied = await ctl(['status', '--controller', url], { PLATCTL_CONTROL_TOKEN: 'wrong' });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/unauthorized.*PLATCTL_CONTROL_TOKEN/);
    expect(denied.stderr).not.toContain('wrong');

    expect((await ctl(['suspend', ...withFile])).stdout).toBe('suspended\n');
    commitFiles(remote, { 'platform/a.yaml': workspaceYaml('ws-a', 'changed') }, 'change a');
    const diff = await ctl(['diff', ...withFile]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/No changes/); // the revision fetched, not the new commit
    expect((await ctl(['reconcile', '--with-source', ...withFile])).stdout).toMatch(/requested/);
    const suspended = await until(
      'the suspended run',
      () => ctl(['status', '-o', 'json'], env),
      (r) => r.stdout.includes('"Suspended": 1'),
    );
    expect(JSON.parse(suspended.stdout).status.suspended).toBe(true);
    const diff2 = await ctl(['diff', '-o', 'json'], env);
    expect(
      JSON.parse(diff2.stdout).actions.some((a: { type: string }) => a.type === 'update'),
    ).toBe(true);

    expect((await ctl(['resume'], env)).stdout).toBe('resumed\n');
    await until(
      'the resumed apply',
      async () => {
        const r = await fetch(`${emulator.url}${WORKSPACES}/ws-a`, {
          headers: { ...keyHeaders(API_KEY) },
        });
        return ((await r.json()) as { metadata: { description?: string } }).metadata.description;
      },
      (d) => d === 'changed',
    );

    commitFiles(remote, { 'platform/b.yaml': null, 'platform/c.yaml': null }, 'drop b and c');
    await ctl(['reconcile', '--with-source'], env);
    const held = await until(
      'the held prune',
      () => ctl(['status'], env),
      (r) => r.stdout.includes('prune held'),
    );
    const run = /approve-prune (\S+)/.exec(held.stdout)?.[1];
    expect(run).toBeDefined();
    expect((await ctl(['approve-prune', 'not-a-run'], env)).code).toBe(1);
    expect((await ctl(['approve-prune', run!], env)).code).toBe(0);
    await until(
      'the approved prune',
      () => ctl(['status'], env),
      (r) => r.stdout.includes('resources:    1 '),
    );

    expect((await ctl(['reset-backoff', 'Workspace/platform/ws-a'], env)).stdout).toMatch(/reset/);
    const unknown = await ctl(['reset-backoff', 'Workspace/platform/nope'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown resource/);

    const missing = await ctl(['status'], {
      PLATCTL_CONTROLLER_URL: '',
      PLATCTL_CONTROL_TOKEN: '',
    });
    expect(missing.stderr).toMatch(/no controller: pass --controller/);
  }, 120_000);
});
