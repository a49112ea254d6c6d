import { describe, expect, it } from 'vitest';
import type { RunningController } from '../../src/controller/controller.js';
import { runCli } from '../helpers/cli.js';
import { CONTROL_TOKEN, nextStep } from './helpers/stack.js';
import { commitTwoBoxes, FREE, PINNED, powerOf } from './helpers/two-boxes.js';
import { useStack } from './helpers/use-stack.js';

/**
 * `platctl ctl power <instance> on|off|reboot`, the CLI's counterpart of the dashboard's power
 * buttons: the real CLI (the build), a process of its own, against a real controller over HTTP.
 */

const stack = useStack();

/** `platctl ctl power ...` as a process: its exit code and output. */
function ctlPower(c: RunningController, args: string[]) {
  return runCli(['ctl', 'power', ...args], {
    env: {
      PLATCTL_CONTROLLER_URL: `http://127.0.0.1:${c.address.port}`,
      PLATCTL_CONTROL_TOKEN: CONTROL_TOKEN,
    },
  });
}

describe('platctl ctl power', () => {
  it('asks the controller, which powers off through its run; says why not where git refuses', async () => {
    commitTwoBoxes(stack);
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    expect(await powerOf(stack, 'free')).toBe('on');

    // checked before any request: the action, and that the key names an instance
    const halt = await ctlPower(c, [FREE, 'halt']);
    expect(halt.code).not.toBe(0);
    expect(halt.stderr).toContain('power: the action must be on, off or reboot, got "halt"');
    const workspace = await ctlPower(c, ['Workspace/platform/ws-a', 'off']);
    expect(workspace.code).not.toBe(0);
    expect(workspace.stderr).toContain(
      'power: the resource must be a compute instance\'s key, ComputeInstance/<project>/<workspace>/<name>, got "Workspace/platform/ws-a"',
    );
    // an instance the controller does not know: its 404, in the command's words
    const unknown = await ctlPower(c, ['ComputeInstance/platform/ws-a/nope', 'off']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain(
      'power off ComputeInstance/platform/ws-a/nope: unknown resource ComputeInstance/platform/ws-a/nope',
    );
    // git pins this one's power state: the 409's reason is the error
    const pinned = await ctlPower(c, [PINNED, 'off']);
    expect(pinned.code).not.toBe(0);
    expect(pinned.stderr).toMatch(
      /power off ComputeInstance\/platform\/ws-a\/pinned: git pins its power state: platctl\.io\/power-state: "on" at pinned\.yaml:\d+/,
    );
    expect(pinned.stderr).not.toContain(CONTROL_TOKEN);

    const ran = nextStep(c, (o) => o.result === 'succeeded');
    const off = await ctlPower(c, [FREE, 'off']);
    expect(off).toMatchObject({ code: 0, stderr: '' });
    expect(off.stdout).toBe(`power off of ${FREE} requested; the controller runs now\n`);
    await ran;
    expect(await powerOf(stack, 'free')).toBe('off');
    expect(await powerOf(stack, 'pinned')).toBe('on');
  }, 90_000);
});
