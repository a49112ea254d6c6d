import type { Command } from 'commander';
import { buildProgram, commandNames } from '../../src/cli/main.js';

/** A command's path (`ctl status`) and the help text platctl prints for it. */
export interface CommandHelp {
  readonly path: string;
  readonly command: Command;
  readonly help: string;
}

/** Every command and subcommand of platctl, the program itself first, each with its `--help`. */
export async function everyHelp(): Promise<CommandHelp[]> {
  const root = await buildProgram(['node', 'platctl']);
  const out: CommandHelp[] = [{ path: '', command: root, help: root.helpInformation() }];
  for (const name of commandNames()) {
    const program = await buildProgram(['node', 'platctl', name]);
    const walk = (cmd: Command, path: string) => {
      out.push({ path, command: cmd, help: cmd.helpInformation() });
      for (const sub of cmd.commands) walk(sub, `${path} ${sub.name()}`);
    };
    walk(program.commands.find((c) => c.name() === name)!, name);
  }
  return out;
}

/** The long flags a help text lists under Options (`--help` left out: every command has it). */
export function helpFlags(help: string): string[] {
  const options = help.split(/^Options:$/m)[1]?.split(/^\S.*:$/m)[0] ?? '';
  return [...options.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z0-9-]*)/gm)]
    .map((m) => m[1]!)
    .filter((f) => f !== '--help');
}
