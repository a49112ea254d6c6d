import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { type ControllerProcess, startControllerProcess } from './helpers/cli-process.js';
import { commitFiles, createGitRemote, type GitRemote } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY } from './helpers/stack.js';

// Issue 24, item 1: with its default, relative state and cache paths the controller applied the
// cache path twice (the clone landed in .platctl/controller-cache/.platctl/controller-cache/…)
// and never fetched. Every path flag is now made absolute once, by the CLI.

let root: string;
let emulator: RunningEmulator;
let ctl: ControllerProcess | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-defaults-'));
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, admin: true });
});
afterEach(async () => {
  if (ctl && ctl.proc.child.exitCode === null) ctl.proc.child.kill('SIGKILL');
  ctl = undefined;
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

const ENV = {
  PLATCTL_BASE_URL: '',
  PLATCTL_API_KEY: API_KEY,
  PLATCTL_STATE_URL: '',
  PLATCTL_STATE_URL_FILE: '',
};

/** A controller with no --state and no --cache-dir, started in `cwd`; stopped once it applied. */
async function applyOnce(cwd: string, repo: string, sha: string): Promise<void> {
  ctl = await startControllerProcess(
    ['--repo', repo, '--path', 'platform/', '--interval', '10m'],
    { ...ENV, PLATCTL_BASE_URL: emulator.url },
    cwd,
  );
  const s = await ctl.waitStatus((x) => x.lastAppliedRevision === sha || x.lastError);
  expect(s.lastError ?? null, ctl.output()).toBeNull();
  expect(s.lastAppliedRevision).toBe(sha);
  ctl.proc.child.kill('SIGTERM');
  expect(await ctl.exited).toBe(0);
}

async function live(name: string): Promise<number> {
  const res = await fetch(`${emulator.url}${WORKSPACES}/${name}`, {
    headers: { 'x-api-key': API_KEY },
  });
  return res.status;
}

describe('the controller with its default state and cache paths (real process)', () => {
  let remote: GitRemote;
  let cwd: string;
  beforeEach(async () => {
    remote = await createGitRemote(join(root, 'git'));
    cwd = join(root, 'elsewhere');
    await mkdir(cwd);
  });

  it.each([
    ['a relative path', () => relative(cwd, remote.bare)],
    ['a file:// URL', () => pathToFileURL(remote.bare).href],
    ['an absolute path', () => remote.bare],
  ])('fetches %s from another directory, and again after a restart', async (_what, repoOf) => {
    const first = commitFiles(remote, { 'platform/ws.yaml': workspaceYaml('ws-d1', 'x') }, 'c1');
    await applyOnce(cwd, repoOf(), first);
    expect(await live('ws-d1')).toBe(200);
    // the defaults, each applied once: state and cache under ./.platctl of the working directory
    expect(existsSync(join(cwd, '.platctl', 'state.db'))).toBe(true);
    expect(existsSync(join(cwd, '.platctl', 'controller-cache', 'checkout', '.git'))).toBe(true);
    expect(existsSync(join(cwd, '.platctl', 'controller-cache', '.platctl'))).toBe(false);

    const second = commitFiles(remote, { 'platform/ws2.yaml': workspaceYaml('ws-d2', 'y') }, 'c2');
    await applyOnce(cwd, repoOf(), second);
    expect(await live('ws-d2')).toBe(200);
  });
});
