import type { Command } from 'commander';
import { outputOption, parseVars, variableOptions } from '../flags.js';
import { readStdin } from '../stdin.js';
import type { RegisterCommand } from './register.js';

interface ValidateOptions {
  output: 'text' | 'json';
  strict?: boolean;
  var: string[];
  varFile: string[];
  infraGroup?: string;
  paasGroup?: string;
}

/**
 * `platctl validate <path...>`: loads and validates manifests without touching the platform,
 * prints every diagnostic, and sets exit code 1 when there is an error (or, with `--strict`, a
 * warning), else 0.
 */
export const registerValidate: RegisterCommand = (program: Command) => {
  const cmd = program
    .command('validate')
    .description(
      'Check manifests (files, directories, or - for stdin) without contacting the platform',
    )
    .argument('<paths...>', 'manifest files or directories; - reads stdin')
    // `human` was validate's name for text
    .addOption(outputOption(['text', 'json'], { human: 'text' }))
    .option('--strict', 'fail on warnings too');
  variableOptions(cmd)
    .option('--infra-group <group>', 'API group of Cluster manifests')
    .option('--paas-group <group>', 'API group of Service, Workspace and ComputeInstance manifests')
    .action(async (paths: string[], opts: ValidateOptions) => {
      // the loader and the schemas are loaded when it runs, not for --help
      const { DEFAULT_LIMITS, formatDiagnostics, validateManifests } = await import(
        '../../manifests/index.js'
      );
      const stdin = paths.includes('-') ? await readStdin(DEFAULT_LIMITS.maxFileBytes) : undefined;
      const groups = {
        ...(opts.infraGroup ? { infra: opts.infraGroup } : {}),
        ...(opts.paasGroup ? { paas: opts.paasGroup } : {}),
      };
      const { valid, diagnostics } = await validateManifests({
        paths,
        stdin,
        vars: parseVars(opts.var),
        varFiles: opts.varFile,
        groups,
      });
      const color = opts.output === 'text' && process.stdout.isTTY && !process.env.NO_COLOR;
      if (opts.output === 'json' || diagnostics.length > 0) {
        const format = opts.output === 'json' ? 'json' : 'human';
        process.stdout.write(formatDiagnostics(diagnostics, format, { color }));
      }
      if (opts.output === 'text' && diagnostics.length === 0) {
        process.stdout.write(`${valid} manifest${valid === 1 ? '' : 's'} valid\n`);
      }
      const failed = diagnostics.some((d) => d.severity === 'error' || opts.strict);
      process.exitCode = failed ? 1 : 0;
    });
};
