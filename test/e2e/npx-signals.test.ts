import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// Issue 24, item 7: `npx platctl emulator ... &`, stopped by its job's pid, left the emulator
// listening: npm exec runs the bin under `sh -c`, which dies of the signal without passing it
// on. bin/platctl.js notices it was orphaned and stops as if it had been signalled itself.
// (A SIGINT to npm's pid alone is passed to that shell, which waits on: npm, the shell and the
// emulator all go on. Ctrl-C and `kill -INT %1` signal the whole job, and stop it.)

const repo = fileURLToPath(new URL('../../', import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  // npx leads its own process group, which an orphaned emulator keeps: end them all
  try {
    if (child?.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
});

/** Whether something accepts connections on the port (one attempt). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** `npx platctl emulator --port 0` as a shell's background job; resolves with its port. */
async function emulatorViaNpx(): Promise<number> {
  child = spawn('npx', ['--no-install', 'platctl', 'emulator', '--port', '0', '--fast'], {
    cwd: repo,
    detached: true,
    env: { ...process.env, NO_COLOR: '1', PLATCTL_EMULATOR_API_KEY: 'signals-test-key' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${out}`)), 60_000);
    child!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  return port;
}

async function stopsListening(port: number): Promise<boolean> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (!(await listening(port))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('stopping `npx platctl emulator` (real processes)', () => {
  it('SIGTERM to npx alone (`kill $!`) stops the emulator: the port stops listening', async () => {
    const port = await emulatorViaNpx();
    expect(await listening(port)).toBe(true);
    child!.kill('SIGTERM'); // npx's pid only: npm passes it to its shell, which dies of it
    expect(await stopsListening(port)).toBe(true);
  }, 90_000);

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s to the whole job (as Ctrl-C does) stops the emulator',
    async (signal) => {
      const port = await emulatorViaNpx();
      process.kill(-child!.pid!, signal); // the job's process group, as a terminal signals it
      expect(await stopsListening(port)).toBe(true);
    },
    90_000,
  );
});
