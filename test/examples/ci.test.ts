import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { INSTANT } from '../e2e/harness.js';
import { ciWorkspace, fakeForge } from './ci-fakes.js';

const file = (name: string) =>
  parse(readFileSync(fileURLToPath(new URL(`../../examples/ci/${name}`, import.meta.url)), 'utf8'));

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}

let emulator: RunningEmulator;
let forge: Awaited<ReturnType<typeof fakeForge>>;
let ws: ReturnType<typeof ciWorkspace>;
const apiKey = randomBytes(16).toString('hex');
const password = `Pw-${randomBytes(8).toString('hex')}`;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, apiKey, transitionSeconds: INSTANT });
  forge = await fakeForge();
  ws = ciWorkspace();
});
afterEach(async () => {
  await emulator.close();
  await forge.close();
  rmSync(ws.dir, { recursive: true, force: true });
});

/**
 * Runs a shell script as the CI would (bash, stop at the first failure) in the workspace. Async:
 * the emulator answers from this process.
 */
function sh(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: ws.work,
      env: { PATH: `${ws.bin}:${process.env.PATH}`, HOME: ws.dir, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The platform's answers to `${{ ... }}`; an expression the test does not know fails it. */
function githubContext(): Record<string, string> {
  return {
    'vars.PLATCTL_BASE_URL': emulator.url,
    'secrets.PLATCTL_API_KEY': apiKey,
    'secrets.PLATCTL_STATE_URL': join(ws.dir, 'state.db'),
    'secrets.PLATCTL_DEMO_PASSWORD': password,
    'secrets.GITHUB_TOKEN': 'gh-token',
    'github.event.pull_request.number': '7',
  };
}
const expand = (text: string, ctx: Record<string, string>) =>
  text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_m, expr: string) => {
    if (!(expr in ctx)) throw new Error(`the test does not know \${{ ${expr} }}`);
    return ctx[expr]!;
  });

/** Runs one job of the workflow: `run` steps in bash, `uses` steps recorded; returns them. */
async function runGithubJob(name: string) {
  const wf = file('github-actions.yaml');
  const ctx = githubContext();
  const env: Record<string, string> = {
    GITHUB_API_URL: forge.github,
    GITHUB_REPOSITORY: 'acme/platform',
  };
  for (const [k, v] of Object.entries(wf.env as Record<string, string>)) env[k] = expand(v, ctx);
  const outputs: Record<string, string> = {};
  const used: string[] = [];
  for (const step of wf.jobs[name].steps as Step[]) {
    if (step.if) {
      const m = /^steps\.(\w+)\.outputs\.(\w+) == '(.*)'$/.exec(step.if);
      expect(m, `step condition the test cannot evaluate: ${step.if}`).not.toBeNull();
      if (outputs[`${m![1]}.${m![2]}`] !== m![3]) continue;
    }
    if (step.uses) {
      used.push(step.uses);
      continue;
    }
    expect(step.shell).toBe('bash');
    const out = join(ws.dir, `output-${step.id ?? 'step'}`);
    writeFileSync(out, '');
    const stepEnv: Record<string, string> = { ...env, GITHUB_OUTPUT: out };
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = expand(v, ctx);
    const r = await sh(expand(step.run!, ctx), stepEnv);
    expect(r.code, `${step.name}: ${r.out}`).toBe(0);
    for (const line of readFileSync(out, 'utf8').split('\n').filter(Boolean)) {
      const [k, v] = line.split('=');
      outputs[`${step.id}.${k}`] = v!;
    }
  }
  return used;
}

/** Runs one GitLab job: default before_script, then its script, with the pipeline's variables. */
async function runGitlabJob(name: string, source: string) {
  const ci = file('gitlab-ci.yaml');
  const job = ci[name];
  const rules = (job.rules as { if: string }[]).map((r) => r.if);
  const branch = source === 'push' ? 'main' : 'feature';
  const matches = rules.some((r) =>
    r === '$CI_PIPELINE_SOURCE == "merge_request_event"'
      ? source === 'merge_request_event'
      : r === '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' && branch === 'main',
  );
  expect(matches, `${name} does not run on ${source}`).toBe(true);
  const r = await sh([...ci.default.before_script, ...job.script].join('\n'), {
    ...ci.variables,
    CI_PIPELINE_SOURCE: source,
    CI_COMMIT_BRANCH: branch,
    CI_DEFAULT_BRANCH: 'main',
    CI_API_V4_URL: forge.gitlab,
    CI_PROJECT_ID: '42',
    CI_MERGE_REQUEST_IID: '7',
    GITLAB_TOKEN: 'gl-token',
    PLATCTL_BASE_URL: emulator.url,
    PLATCTL_API_KEY: apiKey,
    PLATCTL_STATE_URL: join(ws.dir, 'state.db'),
    PLATCTL_DEMO_PASSWORD: password,
  });
  expect(r.code, `${name}: ${r.out}`).toBe(0);
  return job;
}

describe('examples/ci/github-actions.yaml', { timeout: 240_000 }, () => {
  it('plans a pull request into one sticky comment, applies on main with a lock', async () => {
    const wf = file('github-actions.yaml');
    expect(wf.jobs.plan.if).toBe("github.event_name == 'pull_request'");
    expect(wf.jobs.apply.concurrency).toEqual({
      group: 'platctl-apply',
      'cancel-in-progress': false,
    });
    // the key comes from the secret store, never from the file
    expect(wf.env.PLATCTL_API_KEY).toMatch(/^\$\{\{ secrets\.PLATCTL_API_KEY \}\}$/);

    const used = await runGithubJob('plan');
    expect(used).toEqual(['actions/checkout@v4', 'actions/setup-node@v4']); // not cut: no artifact
    expect(readFileSync(ws.installs, 'utf8').trim()).toBe('platctl@0.1.0');
    expect(forge.comments).toHaveLength(1);
    expect(forge.comments[0]!.body).toMatch(/^<!-- platctl-plan -->\n### platctl plan/);
    expect(forge.comments[0]!.body).toMatch(/Plan: \d+ to create/);
    expect(forge.comments[0]!.body).not.toContain(apiKey);
    for (const f of ['plan.md', 'plan.json', 'plan.txt'])
      expect(existsSync(join(ws.work, f))).toBe(true);

    await runGithubJob('plan'); // another push: the same comment, updated
    expect(forge.comments).toHaveLength(1);
    expect(forge.requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(1);

    await runGithubJob('apply'); // the merge
    await runGithubJob('apply'); // the next merge: what the first deferred (new cluster's controllers)
    await runGithubJob('plan');
    expect(forge.comments).toHaveLength(1);
    expect(forge.comments[0]!.body).toMatch(/No changes\./);
  });
});

describe('examples/ci/github-actions.yaml on a large change', { timeout: 240_000 }, () => {
  it('uploads the full plan as an artifact when the comment had to be cut', async () => {
    const docs = Array.from(
      { length: 400 },
      (_, i) =>
        `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: team-space-${i}\n  project: platform\n  displayName: Team space ${i}\n  description: A workspace with a description long enough to fill the comment\n`,
    );
    writeFileSync(join(ws.work, 'platform', '90-many.yaml'), docs.join('---\n'));
    const used = await runGithubJob('plan');
    expect(used).toContain('actions/upload-artifact@v4');
    expect(forge.comments[0]!.body).toMatch(/_Output cut: \d+ more resource/);
    expect(forge.comments[0]!.body.length).toBeLessThan(65_536);
    expect(readFileSync(join(ws.work, 'plan.txt'), 'utf8')).toContain('team-space-399');
  });
});

describe('examples/ci/gitlab-ci.yaml', { timeout: 240_000 }, () => {
  it('plans a merge request into one sticky note, applies on main in a resource group', async () => {
    const ci = file('gitlab-ci.yaml');
    expect(ci.apply.resource_group).toBe('platctl-apply');
    expect(ci.plan.artifacts.paths).toEqual(['plan.md', 'plan.txt', 'plan.json']);

    await runGitlabJob('validate', 'merge_request_event');
    await runGitlabJob('plan', 'merge_request_event');
    expect(forge.comments).toHaveLength(1);
    expect(forge.comments[0]!.body).toMatch(/Plan: \d+ to create/);
    await runGitlabJob('plan', 'merge_request_event');
    expect(forge.comments).toHaveLength(1);
    expect(forge.requests.filter((r) => r.startsWith('PUT'))).toHaveLength(1);

    await runGitlabJob('apply', 'push');
    await runGitlabJob('apply', 'push'); // what the first apply deferred
    await runGitlabJob('plan', 'merge_request_event');
    expect(forge.comments).toHaveLength(1);
    expect(forge.comments[0]!.body).toMatch(/No changes\./);
  });
});
