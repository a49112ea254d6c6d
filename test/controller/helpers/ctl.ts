import { vi } from 'vitest';
import { main } from '../../../src/cli/main.js';
import type { RunningController } from '../../../src/controller/controller.js';
import { CONTROL_TOKEN } from './stack.js';

/**
 * Runs `platctl ctl ...` through the CLI's own entry point in this process against `c` (its URL
 * and the stack's control token in the environment for the call); resolves with standard output.
 */
export async function ctlOutput(c: RunningController, args: readonly string[]): Promise<string> {
  let stdout = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  process.env.PLATCTL_CONTROLLER_URL = `http://127.0.0.1:${c.address.port}`;
  process.env.PLATCTL_CONTROL_TOKEN = CONTROL_TOKEN;
  try {
    await main(['node', 'platctl', 'ctl', ...args]);
    return stdout;
  } finally {
    out.mockRestore();
    process.exitCode = undefined;
    delete process.env.PLATCTL_CONTROLLER_URL;
    delete process.env.PLATCTL_CONTROL_TOKEN;
  }
}
