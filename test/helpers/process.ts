import { type ChildProcess, spawn } from 'node:child_process';
import { PLATCTL_JS } from './platctl-bin.js';

/** tsx's loader by its absolute URL, so a child started in another directory still finds it. */
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

/** A child process whose standard output and error are collected line by line. */
export interface LineProcess {
  readonly child: ChildProcess;
  /** Lines of both streams, in arrival order. */
  readonly lines: string[];
  /** Resolves with the first line matching `re` after the `from`-th line; bounded by `ms`. */
  waitFor(re: RegExp, from?: number, ms?: number): Promise<string>;
}

/** Spawns `node [nodeFlags] --import tsx <script> ...args` with `env` added, in `cwd` (I/O). */
export function spawnTsx(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
  nodeFlags: readonly string[] = [],
  cwd?: string,
): LineProcess {
  return spawnNode([...nodeFlags, '--import', TSX, script, ...args], env, cwd);
}

/** Spawns the built `platctl ...args` (test/helpers/platctl-bin.ts) with `env` added (I/O). */
export function spawnPlatctl(
  args: readonly string[],
  env: Record<string, string> = {},
  nodeFlags: readonly string[] = [],
  cwd?: string,
): LineProcess {
  return spawnNode([...nodeFlags, PLATCTL_JS, ...args], env, cwd);
}

function spawnNode(
  argv: readonly string[],
  env: Record<string, string>,
  cwd?: string,
): LineProcess {
  const child = spawn(process.execPath, argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
    ...(cwd ? { cwd } : {}),
  });
  const lines: string[] = [];
  let waiters: { re: RegExp; from: number; resolve: (line: string) => void }[] = [];
  const check = () => {
    waiters = waiters.filter((w) => {
      const line = lines.slice(w.from).find((l) => w.re.test(l));
      if (line === undefined) return true;
      w.resolve(line);
      return false;
    });
  };
  const collect = (stream: NodeJS.ReadableStream | null) => {
    let buf = '';
    stream?.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      lines.push(...parts);
      check();
    });
  };
  collect(child.stdout);
  collect(child.stderr);
  return {
    child,
    lines,
    waitFor(re, from = 0, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no line ${re} within ${ms} ms; last: ${lines.slice(-3).join(' | ')}`),
            ),
          ms,
        );
        waiters.push({
          re,
          from,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
        check();
      });
    },
  };
}
