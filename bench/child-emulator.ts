import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A `platctl emulator` in a process of its own, so a benchmark can measure its CPU apart. */
export interface ChildEmulator {
  readonly url: string;
  /** utime + stime of the emulator's process in seconds (clock ticks are 1/100 s on Linux). */
  cpuSeconds(): number;
  close(): void;
}

/**
 * Starts `platctl emulator --port 0` from the sources (I/O: spawns a process on loopback) with
 * `apiKey` in its environment, never on its command line, and resolves once it listens.
 * `nodeFlags` go before the script (e.g. `--cpu-prof`).
 */
export async function startChildEmulator(
  apiKey: string,
  nodeFlags: readonly string[] = [],
): Promise<ChildEmulator> {
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      '--import',
      'tsx',
      fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url)),
      'emulator',
      '--port',
      '0',
    ],
    {
      env: { ...process.env, PLATCTL_EMULATOR_API_KEY: apiKey },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  const cpuSeconds = () => {
    const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  };
  return { url, cpuSeconds, close: () => void child.kill('SIGTERM') };
}
