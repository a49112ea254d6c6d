import { type Command, InvalidArgumentError, Option } from 'commander';
import { PlatctlError } from '../core/errors.js';

// The flags several commands share, defined once so that one flag has one name, one spelling of
// its values and one meaning everywhere (docs/cli.md; test/cli/docs.test.ts checks the page
// against every command's --help).

/** Output formats, one vocabulary for every command's `-o`. */
export type OutputFormat = 'text' | 'json' | 'markdown' | 'csv';

/**
 * `-o, --output <format>`, one of `formats` (the first is the default). `aliases` are older
 * spellings still accepted and mapped (`human` → `text`), never listed in help.
 */
export function outputOption(
  formats: readonly OutputFormat[],
  aliases: Readonly<Record<string, OutputFormat>> = {},
): Option {
  const list = `${formats.slice(0, -1).join(', ')} or ${formats.at(-1)}`;
  return new Option('-o, --output <format>', `output format (one of ${list})`)
    .default(formats[0])
    .argParser((value: string) => {
      const format = (formats as readonly string[]).includes(value) ? value : aliases[value];
      if (format === undefined) {
        throw new InvalidArgumentError(`-o ${list}, got ${value}`);
      }
      return format;
    });
}

const collect = (value: string, prev: string[]) => [...prev, value];

/**
 * `--var KEY=VALUE` and `--var-file FILE`, both repeatable: `${VAR}` in manifests (`--var` wins
 * over the files, a later file over an earlier one, both over `PLATCTL_VAR_<NAME>`).
 * `file` maps each var file as it is parsed (the controller makes it absolute).
 */
export function variableOptions(cmd: Command, file: (path: string) => string = (p) => p): Command {
  return cmd
    .option(
      '--var <KEY=VALUE>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the help names the manifests' ${KEY} syntax
      'substitution variable for ${KEY} (repeatable; wins over files)',
      collect,
      [] as string[],
    )
    .option(
      '--var-file <file>',
      'KEY=VALUE or YAML file of substitution variables (repeatable; later files win)',
      (value: string, prev: string[]) => [...prev, file(value)],
      [] as string[],
    );
}

/** `KEY=VALUE` pairs to a map; a malformed one is a usage error. */
export function parseVars(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw new PlatctlError('usage', `--var expects KEY=VALUE, got ${p}`);
    out[p.slice(0, i)] = p.slice(i + 1);
  }
  return out;
}

/** Help of `--state` wherever it appears. */
export const STATE_HELP =
  'state store: a SQLite file or postgres://user@host/db (default $PLATCTL_STATE_URL, else .platctl/state.db)';

/** Help of `--profile` wherever it appears: always the config file's profile. */
export const PROFILE_HELP = 'profile of the config file (default $PLATCTL_PROFILE or default)';

/**
 * An older spelling of a flag, still accepted but not listed in help: `hidden` (e.g.
 * `--token-file <file>`) sets the option named `target` (e.g. `controlTokenFile`) unless that
 * was given too. Works for subcommands: the hook runs before any action under `cmd`.
 */
export function hiddenAlias(cmd: Command, hidden: string, target: string): Command {
  const option = new Option(hidden).hideHelp();
  const from = option.attributeName();
  cmd.addOption(option);
  return cmd.hook('preAction', (self) => {
    const value: unknown = self.getOptionValue(from);
    if (value !== undefined && self.getOptionValue(target) === undefined) {
      self.setOptionValue(target, value);
    }
  });
}
