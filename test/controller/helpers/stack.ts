import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  type ControllerConfig,
  type RunningController,
  startController,
} from '../../../src/controller/controller.js';
import type { StepOutcome } from '../../../src/controller/loop/ports.js';
import { createLogger } from '../../../src/core/logger.js';
import { controlHeaders, emulatorControl } from '../../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { keyHeaders } from '../../helpers/key-header.js';
import { createGitRemote, type GitRemote } from './git-remote.js';
import { WORKSPACES } from './platform-yaml.js';

export const API_KEY = 'emu-admin-key-5f3c9a1b7d';
export const GIT_TOKEN = 'git-token-e2e-8c1d4b';
export const WEBHOOK_SECRET = 'webhook-secret-e2e-2a7f';
export const CONTROL_TOKEN = 'control-token-e2e-5b9e1c';

const FAST_TRANSITIONS = {
  'vpc-deploy': 0.2,
  'compute-provision': 0.3,
  'compute-delete': 0.2,
  'cluster-provision': 0.3,
  'cluster-delete': 0.2,
};

/** An emulator, a bare git remote and a place for controllers' state; all torn down by `close`. */
export interface Stack {
  readonly root: string;
  readonly emulator: RunningEmulator;
  readonly remote: GitRemote;
  /** Every log line of every controller started through {@link Stack.controller}. */
  readonly logs: string[];
  controller(overrides?: Partial<ControllerConfig>): Promise<RunningController>;
  /** Plain request to the emulator with the admin key. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  journal(): Promise<JournalEntry[]>;
  close(): Promise<void>;
}

interface JournalEntry {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly query: Record<string, string>;
}

/** `clockSpeed`: the emulator's clock runs that many times real time (a controller may use it). */
export async function createStack(options: { readonly clockSpeed?: number } = {}): Promise<Stack> {
  const root = await mkdtemp(join(tmpdir(), 'platctl-ctl-e2e-'));
  // Short lifecycles: instance provisioning and deletion take a fraction of a second.
  const emulator = await startEmulator({
    port: 0,
    apiKey: API_KEY,
    admin: true,
    transitionSeconds: FAST_TRANSITIONS,
    ...(options.clockSpeed ? { clockSpeed: options.clockSpeed } : {}),
  });
  const remote = await createGitRemote(join(root, 'git'));
  const logs: string[] = [];
  const controllers: RunningController[] = [];
  let n = 0;
  const api: Stack['api'] = async (method, path, body) => {
    const res = await fetch(`${emulator.url}${path}`, {
      method,
      headers: {
        ...keyHeaders(API_KEY),
        'content-type': 'application/json',
        ...controlHeaders(path),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return {
    root,
    emulator,
    remote,
    logs,
    api,
    async controller(overrides = {}) {
      n++;
      const destination = new Writable({
        write(chunk, _e, cb) {
          logs.push(...String(chunk).split('\n').filter(Boolean));
          cb();
        },
      });
      const c = await startController({
        source: {
          kind: 'git',
          repo: remote.bare,
          branch: 'main',
          path: 'platform/',
          token: GIT_TOKEN,
        },
        cacheDir: join(root, `cache-${n}`),
        statePath: join(root, 'state.db'),
        listen: '127.0.0.1:0',
        webhookSecret: WEBHOOK_SECRET,
        controlToken: CONTROL_TOKEN,
        api: { baseUrl: emulator.url, apiKey: API_KEY },
        intervalMs: 60_000,
        runTimeoutMs: 20_000,
        selfHeal: true,
        dryRun: false,
        suspend: false,
        prune: true,
        leaseTtlMs: 3000,
        backoff: { baseMs: 50, maxMs: 500 },
        wait: { pollMs: 20, timeoutMs: 10_000 },
        logger: createLogger({ destination, level: 'debug' }),
        ...overrides,
      });
      controllers.push(c);
      return c;
    },
    async journal() {
      const r = await emulatorControl(emulator.url, 'GET', '/_emulator/journal');
      return ((await r.json()) as { entries: JournalEntry[] }).entries;
    },
    async close() {
      await Promise.all(controllers.map((c) => c.stop()));
      await emulator.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Waits for the controller's next step whose outcome matches; bounded (30 s: a step that retries 500s and a lease takeover took over 15 s at load 12). */
export function nextStep(
  c: RunningController,
  pred: (o: StepOutcome) => boolean = () => true,
  ms = 30_000,
): Promise<StepOutcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching step within ${ms} ms (last: ${c.status.lastResult})`));
    }, ms);
    const off = c.loop.onStep((o) => {
      if (!pred(o)) return;
      clearTimeout(timer);
      off();
      resolve(o);
    });
  });
}

/** GETs a path of a controller's HTTP server. */
export async function get(
  c: RunningController,
  path: string,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${c.address.port}${path}`);
  return { status: res.status, text: await res.text() };
}

/** Calls the control API of a controller with the control token (or `token`). */
export async function control(
  c: RunningController,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = CONTROL_TOKEN,
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies by their documented shape
): Promise<{ status: number; body: any }> {
  const res = await fetch(`http://127.0.0.1:${c.address.port}${path}`, {
    method,
    headers: {
      ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The description of a workspace of the test project as the platform has it; undefined when absent. */
export async function workspaceDescription(
  stack: Stack,
  name: string,
): Promise<string | undefined> {
  const r = await stack.api('GET', `${WORKSPACES}/${name}`);
  if (r.status === 404) return undefined;
  return (r.body as { metadata: { description?: string } }).metadata.description;
}
