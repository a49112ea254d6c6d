import { Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandEntries } from '../../src/cli/commands/index.js';
import { buildProgram, commandNames } from '../../src/cli/main.js';

// `platctl --help` lists the commands from their one-line entries without loading them (issue 24,
// item 2); it must read exactly as it would with every command loaded.

describe('the root help without loading the commands', () => {
  it('is the help of the program with every command loaded', async () => {
    const light = await buildProgram(['node', 'platctl', '--help']);
    const full = await buildProgram(['node', 'platctl', '--help'], { full: true });
    expect(light.helpInformation()).toBe(full.helpInformation());
    expect(full.commands.map((c) => c.name())).toEqual(commandNames());
    // each entry's term and summary are what commander makes of the loaded command
    for (const entry of commandEntries()) {
      const cmd = full.commands.find((c) => c.name() === entry.name)!;
      expect(new Help().subcommandTerm(cmd)).toBe(entry.term);
      expect(cmd.description()).toBe(entry.summary);
    }
  });

  it("`platctl help <command>` still shows that command's flags", async () => {
    const program = await buildProgram(['node', 'platctl', 'help', 'plan']);
    const plan = program.commands.find((c) => c.name() === 'plan')!;
    expect(plan.helpInformation()).toContain('--detailed-exitcode');
  });
});
