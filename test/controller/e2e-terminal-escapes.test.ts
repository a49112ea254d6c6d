import { describe, expect, it } from 'vitest';
import { ctlOutput } from './helpers/ctl.js';
import { commitFiles } from './helpers/git-remote.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import { nextStep } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

// Issue 22, item 10: `ctl status` printed commit messages and the diagnostics of a rejected
// revision raw, so a commit could retitle the operator's window, clear the screen or fake colours.
const stack = useStack();

/** What no output may hold raw: C0 (but newline), DEL, C1 and bidirectional controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('ctl status shows text from git escaped', () => {
  it('a commit message and a rejected field name with OSC, CSI, BEL and C1 never reach stdout raw', async () => {
    commitFiles(
      stack.remote,
      {
        'platform/ws.yaml': `${workspaceYaml('ws', 'fine')}  "x\\e]0;owned\\a\\x9b2J": 1\n`,
      },
      'innocent \u001b]0;owned\u0007\u001b[2J\u001b[32mall green\u009b0m',
    );
    const c = await stack.controller();
    expect((await nextStep(c)).result).toBe('invalid');
    const out = await ctlOutput(c, ['status']);
    expect(out).toContain('innocent \\x1b]0;owned\\x07\\x1b[2J\\x1b[32mall green\\x9b0m');
    expect(out).toContain('x\\x1b]0;owned\\x07\\x9b2J');
    expect(out).not.toMatch(RAW);
    expect(await ctlOutput(c, ['status', '-o', 'json'])).not.toMatch(RAW);
  });
});
