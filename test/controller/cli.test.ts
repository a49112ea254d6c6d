import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { keyHeaders } from '../helpers/key-header.js';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';
import { commitFiles, createGitRemote } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY, GIT_TOKEN, WEBHOOK_SECRET } from './helpers/stack.js';

const bin = PLATCTL_JS;

let root: string;
let emulator: RunningEmulator;
let child: ChildProcess | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-ctl-cli-'));
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, admin: true });
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

/** Starts `platctl controller` as a real process; resolves with its port once listening. */
function startCli(args: string[]) {
  let stderr = '';
  let stdout = '';
  const proc = spawn(process.execPath, [bin, 'controller', ...args], {
    env: {
      ...process.env,
      PLATCTL_BASE_URL: emulator.url,
      PLATCTL_API_KEY: API_KEY,
      PLATCTL_GIT_TOKEN: GIT_TOKEN,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  proc.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  const port = new Promise<number>((resolve, reject) => {
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
  const exited = new Promise<number | null>((r) => proc.on('close', (code) => r(code)));
  return { port, exited, output: () => stderr + stdout };
}

async function pollStatus(port: number, pred: (s: Record<string, unknown>) => boolean) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const s = (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as Record<
      string,
      unknown
    >;
    if (pred(s)) return s;
    if (Date.now() > deadline) throw new Error(`status never matched: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('platctl controller (real process)', () => {
  it('follows a repository, then exits cleanly on SIGTERM, with no secret in its output', async () => {
    const remote = await createGitRemote(join(root, 'git'));
    const sha = commitFiles(remote, { 'platform/ws.yaml': workspaceYaml('ws-cli', 'x') }, 'c1');
    const secretFile = join(root, 'webhook-secret');
    await writeFile(secretFile, `${WEBHOOK_SECRET}\n`);
    const cli = startCli([
      '--repo',
      remote.bare,
      '--branch',
      'main',
      '--path',
      'platform/',
      '--interval',
      '1m',
      '--listen',
      '127.0.0.1:0',
      '--webhook-secret-file',
      secretFile,
      '--state',
      join(root, 'state.db'),
      '--lease-ttl',
      '2s',
    ]);
    const port = await cli.port;
    const s = await pollStatus(port, (x) => x.lastAppliedRevision === sha);
    expect(s.role).toBe('leader');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const live = await fetch(`${emulator.url}${WORKSPACES}/ws-cli`, {
      headers: { ...keyHeaders(API_KEY) },
    });
    expect(live.status).toBe(200);
    child?.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    const out = cli.output();
    expect(out).toContain('"event":"stopped"');
    for (const secret of [API_KEY, GIT_TOKEN, WEBHOOK_SECRET]) expect(out).not.toContain(secret);
  });

  it('on SIGTERM mid-apply lets the running action finish, starts no new one, and exits 0', async () => {
    const platform = readFileSync(
      new URL('../../examples/manifests/10-platform.yaml', import.meta.url),
      'utf8',
    );
    const remote = await createGitRemote(join(root, 'git'));
    commitFiles(remote, { 'platform/platform.yaml': platform }, 'platform');
    const cli = startCli([
      '--repo',
      remote.bare,
      '--path',
      'platform/',
      '--listen',
      '127.0.0.1:0',
      '--state',
      join(root, 'state.db'),
      '--lease-ttl',
      '2s',
    ]);
    await cli.port;
    const journal = async () =>
      (
        (await (await emulatorControl(emulator.url, 'GET', '/_emulator/journal')).json()) as {
          entries: { method: string; path: string }[];
        }
      ).entries;
    const deadline = Date.now() + 20_000;
    while (
      !(await journal()).some(
        (e) => e.method === 'POST' && e.path.endsWith('/vpc-platform/publish'),
      )
    ) {
      if (Date.now() > deadline) throw new Error(`VPC never published: ${cli.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(child?.exitCode).toBeNull(); // still waiting for the VPC (30 s of emulator time)
    await emulatorControl(emulator.url, 'POST', '/_emulator/clock/advance', { seconds: 60 });
    expect(await cli.exited).toBe(0);
    const entries = await journal();
    expect(
      entries.filter((e) => e.method === 'POST' && e.path.endsWith('/computeinstances')),
    ).toEqual([]);
    expect(cli.output()).toMatch(/"event":"run-end"[^\n]*"result":"interrupted"/);
    expect(cli.output()).not.toContain(API_KEY);
  });

  it('refuses a repository URL carrying credentials, without printing them', async () => {
    const cli = startCli([
      '--repo',
      'https://user:pa55word-xyz@git.example.invalid/r.git',
      '--listen',
      '127.0.0.1:0',
    ]);
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain('embeds credentials');
    expect(cli.output()).not.toContain('pa55word-xyz');
  });

  it('refuses to start when the --known-hosts file is missing, naming it', async () => {
    const missing = join(root, 'no-known-hosts');
    const cli = startCli([
      '--repo',
      'ssh://git@git.example.invalid/acme/platform.git',
      '--known-hosts',
      missing,
      '--listen',
      '127.0.0.1:0',
      '--state',
      join(root, 'state.db'),
    ]);
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain(`--known-hosts ${missing}: missing or unreadable`);
  });
});
