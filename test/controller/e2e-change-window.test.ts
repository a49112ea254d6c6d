import { describe, expect, it } from 'vitest';
import { EmulatorClock } from '../../src/emulator/clock.js';
import { ctlOutput } from './helpers/ctl.js';
import { commitFiles } from './helpers/git-remote.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import { control, nextStep, workspaceDescription } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

/**
 * ChangeWindow in the controller (issue 25): a prune outside its allow window is held, with
 * "held until" in status and the control API, while the rest of the revision applies; the loop
 * wakes when the window opens (on the emulator's fast clock, 120 emulated seconds a second) and
 * deletes then. Once the held run's checks are done, the clock is advanced to 30 s (emulated)
 * before the opening rather than waited to it (an advance wakes the loop's sleep).
 */
const stack = useStack();

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/**
 * Deletes in project platform allowed for an hour from the next whole minute + 60 (UTC): on the
 * fast clock, half a minute of real time after the commit that adds it (room for the held run to
 * end before it opens on a loaded machine; the test advances the clock once it has).
 */
function windowYaml(now: number): { yaml: string; opens: number } {
  const opens = Math.ceil(now / 60_000) * 60_000 + 3_600_000;
  const yaml = `apiVersion: platctl.io/v1alpha1
kind: ChangeWindow
metadata:
  name: deletes-later
spec:
  window: allow
  actions: [delete]
  projects: [platform]
  timeZone: UTC
  periods:
    - start: "${hhmm(opens)}"
      stop: "${hhmm(opens + 3_600_000)}"
`;
  return { yaml, opens };
}

describe('change windows in the controller', () => {
  it('holds a delete outside its window, applies the rest, and deletes when it opens', async () => {
    const clock = new EmulatorClock({ speed: 120 });
    commitFiles(
      stack.remote,
      {
        'platform/keep.yaml': workspaceYaml('keep', 'one'),
        'platform/old.yaml': workspaceYaml('old', 'one'),
      },
      'two workspaces',
    );
    const c = await stack.controller({
      clock,
      intervalMs: 86_400_000,
      runTimeoutMs: 3_600_000,
      leaseTtlMs: 3_600_000,
      wait: { pollMs: 1200, timeoutMs: 3_600_000 },
    });
    await nextStep(c, (o) => o.result === 'succeeded');

    const { yaml, opens } = windowYaml(clock.now());
    commitFiles(
      stack.remote,
      {
        'platform/old.yaml': null,
        'platform/keep.yaml': workspaceYaml('keep', 'two'),
        'platform/window.yaml': yaml,
      },
      'drop old, change keep; deletes in a window',
    );
    const held = nextStep(c);
    c.loop.trigger('test', 'manual', { withSource: true });
    expect((await held).result).toBe('window-held');
    expect(await workspaceDescription(stack, 'keep')).toBe('two'); // the rest applied
    expect(await workspaceDescription(stack, 'old')).toBe('one'); // the delete waits
    const until = new Date(opens).toISOString();
    expect(c.status.heldUntil).toBe(until);
    expect(c.status.conditions.find((x) => x.key === 'Workspace/platform/old')).toMatchObject({
      condition: 'Progressing',
      reason: 'WindowHeld',
      message: `held until ${until} (change window ChangeWindow/deletes-later)`,
    });
    const status = await control(c, 'GET', '/api/v1/status');
    expect(status.body.heldUntil).toBe(until);
    expect(status.body.windowHolds).toMatchObject([
      { key: 'Workspace/platform/old', class: 'delete', outcome: 'held', until },
    ]);
    expect(await ctlOutput(c, ['status'])).toContain(
      `window held:  1 action(s) held until ${until}`,
    );

    // no trigger: the loop wakes at the window's opening (a day's interval would be far later)
    const ahead = Math.floor((opens - 30_000 - clock.now()) / 1000);
    expect(ahead).toBeGreaterThan(0);
    clock.advance(ahead);
    const opened = await nextStep(c, (o) => o.result === 'succeeded', 30_000);
    expect(opened.startedAt).toBeGreaterThanOrEqual(opens);
    expect(await workspaceDescription(stack, 'old')).toBeUndefined();
    expect(c.status.heldUntil).toBeUndefined();
  }, 60_000);
});
