import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PLATCTL_JS } from './platctl-bin.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real platctl CLI (its build: test/helpers/platctl-bin.ts) as a child process and collects its output.
 * `input` (text, or bytes as they are) is written to stdin; the process is killed after `timeoutMs`.
 */
export function runCli(
  args: readonly string[],
  opts: {
    env?: Record<string, string | undefined>;
    input?: string | Uint8Array;
    cwd?: string;
    timeoutMs?: number;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PLATCTL_JS, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}
