import type { RegisterCommand } from './register.js';

/**
 * A subcommand by name, its module loaded only when it is registered. `term` and `summary` are
 * what the root help lists, so `platctl --help` and `--version` load no command at all
 * (test/cli/root-help.test.ts keeps them equal to the loaded commands' own).
 */
export interface CommandEntry {
  readonly name: string;
  /** The command as the root help lists it: `plan [options] <paths...>`. */
  readonly term: string;
  /** Its description, as the command registers it. */
  readonly summary: string;
  readonly load: () => Promise<RegisterCommand>;
}

/**
 * Every subcommand, in the order help lists them; add new commands here, one entry each. Loading
 * is lazy so that `platctl validate` does not pay for the controller, the emulator and both state
 * stores (a third of a second of module loading on every run).
 */
const commands: readonly CommandEntry[] = [
  {
    name: 'validate',
    term: 'validate [options] <paths...>',
    summary: 'Check manifests (files, directories, or - for stdin) without contacting the platform',
    load: async () => (await import('./validate.js')).registerValidate,
  },
  {
    name: 'emulator',
    term: 'emulator [options]',
    summary: 'Run the platform emulator (the whole API, in memory or in a SQLite file)',
    load: async () => (await import('./emulator.js')).registerEmulator,
  },
  {
    name: 'plan',
    term: 'plan [options] <paths...>',
    summary: 'Show what apply would change (reads the platform only)',
    load: async () => (await import('./plan.js')).registerPlan,
  },
  {
    name: 'apply',
    term: 'apply [options] <paths...>',
    summary: 'Plan, confirm, and apply the changes',
    load: async () => (await import('./apply.js')).registerApply,
  },
  {
    name: 'demo',
    term: 'demo',
    summary: 'Start an in-process emulator, then plan and apply examples/manifests/ against it',
    load: async () => (await import('./demo.js')).registerDemo,
  },
  {
    name: 'controller',
    term: 'controller [options]',
    summary: 'Run as a controller: follow a git branch and keep the platform converged',
    load: async () => (await import('./controller.js')).registerController,
  },
  {
    name: 'ctl',
    term: 'ctl [options]',
    summary: 'Control a running controller: status, reconcile, suspend, resume, diff, ...',
    load: async () => (await import('./ctl.js')).registerCtl,
  },
  {
    name: 'import',
    term: 'import [options]',
    summary: 'Write the live platform as manifests (reads the platform only)',
    load: async () => (await import('./import.js')).registerImport,
  },
  {
    name: 'usage',
    term: 'usage [options]',
    summary: 'Show compute usage, GPU-hours and cost from the billing metrics',
    load: async () => (await import('./usage.js')).registerUsage,
  },
  {
    name: 'state',
    term: 'state',
    summary: 'Maintain the state store',
    load: async () => (await import('./state.js')).registerState,
  },
  {
    name: 'doctor',
    term: 'doctor [options]',
    summary: 'Check a platform before the first plan: reachability, auth, reads, clock, rights',
    load: async () => (await import('./doctor.js')).registerDoctor,
  },
  {
    name: 'policy',
    term: 'policy',
    summary: 'Work with Policy manifests',
    load: async () => (await import('./policy.js')).registerPolicy,
  },
];

/**
 * The commands a command line loads (pure): the one it names (`help <name>` included), or none
 * (help, `--version`, an unknown or misspelled command: the root help and commander's
 * suggestions need only the names and summaries of {@link commandEntries}).
 */
export function commandsFor(args: readonly string[]): readonly CommandEntry[] {
  const name = args[0] === 'help' ? args[1] : args[0];
  const named = commands.find((c) => c.name === name);
  return named ? [named] : [];
}

/** Every subcommand's entry, in help order. */
export function commandEntries(): readonly CommandEntry[] {
  return commands;
}

/** Every subcommand's name, in help order (pure). */
export function commandNames(): string[] {
  return commands.map((c) => c.name);
}
