import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import type { Status } from '../../../web/src/api/status.js';
import {
  commitFiles,
  createGitRemote,
  type GitRemote,
} from '../../controller/helpers/git-remote.js';
import { EXAMPLES, FAST } from '../../e2e/harness.js';
import { keyHeaders } from '../../helpers/key-header.js';
import { PLATCTL_JS } from '../../helpers/platctl-bin.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = PLATCTL_JS;

/** Two workspaces beside the examples, for a prune of two (over `--max-deletes 1`). */
export const SCRATCH = 'platform/40-scratch.yaml';
const SCRATCH_YAML = ['scratch-1', 'scratch-2']
  .map((name) =>
    [
      'apiVersion: paas.envmgmt.io/v1',
      'kind: Workspace',
      'metadata:',
      `  name: ${name}`,
      '  project: platform',
      '  description: scratch space',
      '',
    ].join('\n'),
  )
  .join('---\n');

/**
 * A real `platctl controller` process (the built CLI) following a local bare git
 * repository that holds `examples/manifests` plus {@link SCRATCH}, against an emulator on a
 * loopback port, with a control token in a file. Pruning on, at most one deletion per run.
 */
export interface ControllerProcess {
  readonly url: string;
  readonly token: string;
  readonly emulator: RunningEmulator;
  readonly remote: GitRemote;
  readonly logs: string[];
  /** A request to the emulator with the admin key. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** A request to the controller's control API with the token. */
  control<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** More files for the repository (path under its root → text), and more controller flags. */
export interface ControllerProcessOptions {
  readonly files?: Readonly<Record<string, string>>;
  readonly args?: readonly string[];
}

export async function startControllerProcess(
  options: ControllerProcessOptions = {},
): Promise<ControllerProcess> {
  const root = mkdtempSync(join(tmpdir(), 'platctl-dash-e2e-'));
  const apiKey = randomBytes(16).toString('hex');
  const token = `control-${randomBytes(12).toString('hex')}`;
  const emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: FAST });
  const remote = await createGitRemote(join(root, 'git'));
  cpSync(EXAMPLES, join(remote.work, 'platform'), { recursive: true });
  commitFiles(
    remote,
    { [SCRATCH]: SCRATCH_YAML, ...options.files },
    'The platform: examples and two scratch workspaces',
  );
  writeFileSync(join(root, 'control-token'), `${token}\n`, { mode: 0o600 });
  const logs: string[] = [];
  const child: ChildProcess = spawn(
    process.execPath,
    [
      BIN,
      'controller',
      ...['--repo', remote.bare, '--branch', 'main', '--path', 'platform/'],
      ...['--listen', '127.0.0.1:0', '--interval', '1h', '--prune', '--max-deletes', '1'],
      ...['--state', join(root, 'state.db'), '--control-token-file', join(root, 'control-token')],
      ...(options.args ?? []),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PLATCTL_BASE_URL: emulator.url,
        PLATCTL_API_KEY: apiKey,
        PLATCTL_DEMO_PASSWORD: `Pw-${randomBytes(8).toString('hex')}`,
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`controller did not start:\n${logs.join('\n')}`)),
      30_000,
    );
    let partial = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        logs.push(line);
        const listen = /"event":"started".*"listen":"[^"]*:(\d+)"/.exec(line)?.[1];
        if (listen) {
          clearTimeout(timer);
          resolve(Number(listen));
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`controller exited with ${code}:\n${logs.join('\n')}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    token,
    emulator,
    remote,
    logs,
    async api(method, path, body) {
      const res = await fetch(`${emulator.url}${path}`, {
        method,
        headers: { ...keyHeaders(apiKey), 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async control<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async close() {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
      await emulator.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Reads `read` every 250 ms until `ok` holds of what it read, and returns that; rejects with what
 * it read last once `ms` have passed.
 */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Waits for the controller's first apply: more than `atLeast` resources, every one Ready. */
export function firstApply(ctl: ControllerProcess, atLeast = 0, ms = 60_000): Promise<Status> {
  return until(
    'the first apply',
    () => ctl.control<Status>('GET', '/api/v1/status'),
    (s) => s.counts.total > atLeast && s.counts.Ready === s.counts.total,
    ms,
  );
}
