import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';
import { commitFiles, createGitRemote } from './helpers/git-remote.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.js';
import { API_KEY, CONTROL_TOKEN, GIT_TOKEN, WEBHOOK_SECRET } from './helpers/stack.js';

/**
 * Notifications end to end (issue 9): a real `platctl controller` process follows a local bare
 * repository against the emulator and sends alerts to a loopback receiver standing in for a
 * webhook, Slack and GitHub's API.
 */
const bin = PLATCTL_JS;
const HMAC_KEY = 'hmac-key-e2e-6d2a9f';
const GH_TOKEN = 'gh-token-e2e-3b8c1e';
const SLACK_SECRET = 'slack-secret-path-4e5f';
const SECRETS = [
  API_KEY,
  GIT_TOKEN,
  WEBHOOK_SECRET,
  CONTROL_TOKEN,
  HMAC_KEY,
  GH_TOKEN,
  SLACK_SECRET,
];

let root: string;
let emulator: RunningEmulator;
let rx: Receiver;
let child: ChildProcess | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-notify-e2e-'));
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, admin: true });
  rx = await startReceiver();
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await rx.close();
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

async function secretFile(name: string, value: string): Promise<string> {
  const path = join(root, name);
  await writeFile(path, `${value}\n`);
  return path;
}

/** The status of the controller at `port`, polled until `pred` holds; bounded. */
async function statusUntil(port: number, pred: (s: Record<string, unknown>) => boolean) {
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

const hook = (kind: string, revision?: string) => (r: Received) =>
  r.path === '/hook' &&
  r.json?.kind === kind &&
  (revision === undefined || r.json.revision === revision);
const commitStatus = (sha: string, state: string) => (r: Received) =>
  r.path === `/gh/repos/acme/platform/statuses/${sha}` && r.json?.state === state;

describe('notifications from a real controller process', () => {
  it('a bad commit then a good one: rejected alert once, commit statuses, recovery; no secret sent', async () => {
    const remote = await createGitRemote(join(root, 'git'));
    const good = commitFiles(remote, { 'platform/ws.yaml': workspaceYaml('ws-n', 'one') }, 'good');
    const config = [
      'providers:',
      '  - name: hook',
      '    type: webhook',
      `    url: ${rx.url}/hook`,
      `    secretFile: ${await secretFile('hmac', HMAC_KEY)}`,
      '  - name: chat',
      '    type: slack',
      `    urlFile: ${await secretFile('slack-url', `${rx.url}/slack/T0/B0/${SLACK_SECRET}`)}`,
      '    events: [revision-rejected, recovered]',
      '  - name: commits',
      '    type: github',
      `    url: ${rx.url}/gh`,
      '    repository: acme/platform',
      `    tokenFile: ${await secretFile('gh-token', GH_TOKEN)}`,
      '',
    ].join('\n');
    const configFile = join(root, 'notifications.yaml');
    await writeFile(configFile, config);
    let stderr = '';
    child = spawn(
      process.execPath,
      [
        bin,
        'controller',
        ...['--repo', remote.bare, '--path', 'platform/', '--interval', '1s'],
        ...['--listen', '127.0.0.1:0', '--state', join(root, 'state.db'), '--lease-ttl', '2s'],
        ...['--webhook-secret-file', await secretFile('webhook', WEBHOOK_SECRET)],
        ...['--control-token-file', await secretFile('control', CONTROL_TOKEN)],
        ...['--notifications', configFile],
      ],
      {
        env: {
          ...process.env,
          PLATCTL_BASE_URL: emulator.url,
          PLATCTL_API_KEY: API_KEY,
          PLATCTL_GIT_TOKEN: GIT_TOKEN,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((r) => child?.on('close', (code) => r(code)));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening: ${stderr}`)), 20_000);
      child?.stderr?.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /"listen":"[^"]*:(\d+)"/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });

    // 1. the good revision applies: a success status on its commit
    await rx.waitFor(commitStatus(good, 'success'));
    // 2. a bad commit: rejected, a failure status on it, Slack told
    const bad = commitFiles(
      remote,
      { 'platform/ws.yaml': `${workspaceYaml('ws-n', 'two')}descripton: x\n` },
      'bad',
    );
    const rejected = await rx.waitFor(hook('revision-rejected', bad));
    expect(rejected.json).toMatchObject({ severity: 'error', revision: bad });
    expect(rejected.json.details.join('\n')).toMatch(/ws\.yaml:\d+:\d+/);
    const failure = await rx.waitFor(commitStatus(bad, 'failure'));
    expect(failure.json).toEqual({
      state: 'failure',
      context: 'platctl',
      description: expect.stringContaining('rejected'),
    });
    expect(failure.headers.accept).toBe('application/vnd.github+json');
    const slack = await rx.waitFor(
      (r) => r.path.startsWith('/slack/') && /Revision rejected/.test(r.json?.text),
    );
    expect(slack.json.attachments[0]).toMatchObject({
      color: '#d1242f',
      blocks: expect.any(Array),
    });
    // while it stays HEAD, resyncs of the last good revision say nothing new (two more runs)
    const seen = (await statusUntil(port, (s) => s.lastResult === 'invalid')).lastRunAt;
    let runs = 0;
    let last = seen;
    while (runs < 2) {
      const s = await statusUntil(port, (x) => x.lastRunAt !== last);
      last = s.lastRunAt;
      runs++;
    }
    // 3. a good commit: recovery, and a success status on the new commit
    const fixed = commitFiles(
      remote,
      { 'platform/ws.yaml': workspaceYaml('ws-n', 'three') },
      'fix',
    );
    const recovered = await rx.waitFor(hook('recovered', fixed));
    expect(recovered.json).toMatchObject({ recovered: 'revision-rejected', severity: 'info' });
    await rx.waitFor(commitStatus(fixed, 'success'));
    await rx.waitFor((r) => r.path.startsWith('/slack/') && /Recovered/.test(r.json?.text));
    expect(rx.received.filter(hook('revision-rejected'))).toHaveLength(1);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // every webhook body is signed; no secret anywhere but the forge's Authorization header
    for (const r of rx.received) {
      if (r.path === '/hook') {
        const mac = createHmac('sha256', HMAC_KEY).update(r.body).digest('hex');
        expect(r.headers['x-platctl-signature']).toBe(`sha256=${mac}`);
      }
      const { authorization, ...headers } = r.headers;
      const text = r.body + JSON.stringify(headers);
      for (const s of SECRETS) {
        expect(text).not.toContain(s);
      }
      expect(authorization).toBe(r.path.startsWith('/gh/') ? `Bearer ${GH_TOKEN}` : undefined);
    }
    for (const s of SECRETS) {
      expect(stderr).not.toContain(s);
    }
    expect(stderr).toContain('"event":"alert"');
  });

  it('a bad notifications file stops the start with file:line:col, before anything is sent', async () => {
    const remote = await createGitRemote(join(root, 'git'));
    commitFiles(remote, { 'platform/ws.yaml': workspaceYaml('ws-x', 'x') }, 'good');
    const configFile = join(root, 'notifications.yaml');
    await writeFile(
      configFile,
      'providers:\n  - name: chat\n    type: slak\n    url: https://x.example\n',
    );
    const proc = spawn(
      process.execPath,
      [bin, 'controller', '--repo', remote.bare, '--path', 'platform/'].concat([
        '--listen',
        '127.0.0.1:0',
        '--state',
        join(root, 'state.db'),
        '--notifications',
        configFile,
      ]),
      {
        env: { ...process.env, PLATCTL_BASE_URL: emulator.url, PLATCTL_API_KEY: API_KEY },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    child = proc;
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const code = await new Promise<number | null>((r) => proc.on('close', (c) => r(c)));
    expect(code).not.toBe(0);
    expect(stderr).toContain(
      `${configFile}:3:11: error[invalid-value]: providers[0].type: must be one of`,
    );
    const journal = (await (
      await emulatorControl(emulator.url, 'GET', '/_emulator/journal')
    ).json()) as {
      entries: unknown[];
    };
    expect(journal.entries).toEqual([]);
  });
});
