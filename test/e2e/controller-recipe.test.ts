import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';
import { consoleSteps, expectLines, hasLines } from './doc-steps.js';

// Issue 24, item 4: docs/controller.md's local recipe (a bare repository, a control token,
// `controller --repo`, open `/`), followed command by command: a `$ npx platctl ... &` runs the
// real CLI in the background (on a free port, which later steps use instead), `curl` is polled
// until it prints what the page shows, every other command runs in bash. /tmp/ is a temp dir.
const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = PLATCTL_JS;

const root = mkdtempSync(join(tmpdir(), 'platctl-recipe-'));
const clone = join(root, 'clone');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(root, { recursive: true, force: true });
});

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'recipe',
  GIT_AUTHOR_EMAIL: 'recipe@example.invalid',
  GIT_COMMITTER_NAME: 'recipe',
  GIT_COMMITTER_EMAIL: 'recipe@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Starts `platctl ...args` in the background; resolves with its output once it matches `ready`. */
function background(args: string[], env: Record<string, string>, ready: RegExp): Promise<string> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: clone,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${out}`)), 60_000);
    const take = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.on('close', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

/** GET `url` until its body shows the expected lines and `done` holds; bounded. */
async function poll(url: string, expected: readonly string[], done: (body: string) => boolean) {
  const deadline = Date.now() + 90_000;
  let body = '';
  while (Date.now() < deadline) {
    body = await fetch(url).then(
      (r) => r.text(),
      () => '',
    );
    if (hasLines(body, expected) && done(body)) return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} never showed ${expected.join(' | ')}: ${body}`);
}

describe("docs/controller.md's local controller recipe", () => {
  it('runs as written, up to a dashboard whose status shows the commit applied', async () => {
    // a clone's working directory: its examples and node_modules; the controller's state and
    // clone go under .platctl/ here, its defaults
    cpSync(join(repo, 'examples'), join(clone, 'examples'), { recursive: true });
    symlinkSync(join(repo, 'node_modules'), join(clone, 'node_modules'));
    const page = readFileSync(join(repo, 'docs/controller.md'), 'utf8');
    const steps = consoleSteps(page, '## Try it locally');
    const env: Record<string, string> = { ...GIT_ENV };
    const ports = new Map<string, string>(); // the page's port → the free one used instead
    const local = (text: string) => {
      let t = text.replaceAll('/tmp/', `${root}/`);
      for (const [from, to] of ports) t = t.replaceAll(from, to);
      return t;
    };
    let status = '';
    for (const step of steps) {
      const command = local(step.command);
      const words = command.split(/\s+/);
      if (words[0] === 'export') {
        for (const pair of words.slice(1)) {
          const [name, value] = pair.split('=');
          env[name!] = value!;
        }
      } else if (words[0] === 'npx' && words[1] === 'platctl' && words.at(-1) === '&') {
        const args = words.slice(2, -1);
        // a free port instead of the page's: --port N, --listen host:N
        const i = args.findIndex((a) => a === '--port' || a === '--listen');
        const wanted = args[i + 1]!.split(':').at(-1)!;
        args[i + 1] = args[i] === '--port' ? '0' : '127.0.0.1:0';
        const out = await background(args, env, /listening on http|"event":"started"/);
        const got = /(?:127\.0\.0\.1:|"listen":"[^"]*:)(\d+)/.exec(out)![1]!;
        ports.set(wanted, got);
        expectLines(out, step.expected.map(local), step.command);
      } else if (words[0] === 'curl') {
        const url = words.find((w) => w.startsWith('http'))!;
        const sha = execFileSync('git', ['-C', join(root, 'platform'), 'rev-parse', 'HEAD'], {
          env: { ...process.env, ...env },
        })
          .toString()
          .trim();
        status = await poll(url, step.expected.map(local), (body) =>
          body.includes(`"lastAppliedRevision": "${sha}"`),
        );
      } else {
        execFileSync('bash', ['-c', command], {
          cwd: clone,
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      }
    }
    expect(status).toContain('"lastResult": "succeeded"');

    // "open /": the dashboard's page, and the status it reads with the token
    const base = `http://127.0.0.1:${ports.get('8081')}`;
    const page1 = await fetch(`${base}/`);
    expect(page1.status).toBe(200);
    expect(await page1.text()).toMatch(/<html/i);
    const token = readFileSync(join(root, 'control-token'), 'utf8').trim();
    const api = await fetch(`${base}/api/v1/status`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.status).toBe(200);
    const view = JSON.stringify(await api.json());
    const sha = execFileSync('git', ['-C', join(root, 'platform'), 'rev-parse', 'HEAD'])
      .toString()
      .trim();
    expect(view).toContain(sha);
    expect(view).toContain('The platform, from the examples');
  }, 300_000);
});
