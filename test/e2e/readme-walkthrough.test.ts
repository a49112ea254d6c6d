import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';
import { consoleSteps, expectLines } from './doc-steps.js';

// Follows the README's walk-through command by command against the emulator and checks the key
// lines it shows, so the README cannot drift from the program.
const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = PLATCTL_JS;

const dir = mkdtempSync(join(tmpdir(), 'platctl-readme-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('the README walk-through', () => {
  it('runs as written, and prints what it shows', async () => {
    // a clone's working directory: its examples, its node_modules; state goes in .platctl/ here
    cpSync(join(repo, 'examples'), join(dir, 'examples'), { recursive: true });
    symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
    const env: Record<string, string> = {};
    let port = '';
    const local = (text: string) => (port ? text.replaceAll('8080', port) : text);
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const steps = consoleSteps(readme, '## Walk-through');
    expect(steps.length).toBeGreaterThan(5);
    for (const step of steps) {
      const words = local(step.command).split(/\s+/);
      if (words[0] === 'export') {
        for (const pair of words.slice(1)) {
          const [name, value] = pair.split('=');
          env[name!] = value!;
        }
        continue;
      }
      expect(words.slice(0, 2), step.command).toEqual(['npx', 'platctl']);
      const args = words.slice(2);
      if (args.at(-1) === '&') {
        // the emulator in the background: on a free port, which later steps use instead of 8080
        const flags = args.slice(0, -1).map((a, i, all) => (all[i - 1] === '--port' ? '0' : a));
        const out = await background(flags, env);
        port = /127\.0\.0\.1:(\d+)/.exec(out)![1]!;
        expectLines(out, step.expected.map(local), step.command);
        continue;
      }
      const r = await runCli(args, { env, cwd: dir, timeoutMs: 120_000 });
      expect(r.code, `${step.command}\n${r.stdout}\n${r.stderr}`).toBe(0);
      expectLines(`${r.stdout}\n${r.stderr}`, step.expected.map(local), step.command);
    }
  }, 400_000);
});

/** Starts `platctl ...args` in the background; resolves with its output once it has started. */
function background(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('lifecycles')) {
        clearTimeout(timer);
        resolve(out);
      }
    });
  });
}
