import type { RegisterCommand } from './register.js';

/** A subcommand by name, its module loaded only when it is registered. */
export interface CommandEntry {
  readonly name: string;
  readonly load: () => Promise<RegisterCommand>;
}

/**
 * Every subcommand, in the order help lists them; add new commands here, one line each. Loading
 * is lazy so that `platctl validate` does not pay for the controller, the emulator and both state
 * stores (a third of a second of module loading on every run).
 */
const commands: readonly CommandEntry[] = [
  { name: 'validate', load: async () => (await import('./validate.js')).registerValidate },
  { name: 'emulator', load: async () => (await import('./emulator.js')).registerEmulator },
  { name: 'plan', load: async () => (await import('./plan.js')).registerPlan },
  { name: 'apply', load: async () => (await import('./apply.js')).registerApply },
  { name: 'demo', load: async () => (await import('./demo.js')).registerDemo },
  { name: 'controller', load: async () => (await import('./controller.js')).registerController },
  { name: 'ctl', load: async () => (await import('./ctl.js')).registerCtl },
  { name: 'import', load: async () => (await import('./import.js')).registerImport },
  { name: 'usage', load: async () => (await import('./usage.js')).registerUsage },
  { name: 'state', load: async () => (await import('./state.js')).registerState },
  { name: 'doctor', load: async () => (await import('./doctor.js')).registerDoctor },
];

/**
 * The commands a command line needs (pure): the one it names, or all of them when it names none
 * (help, `--version`, an unknown or misspelled command, which commander answers from the list).
 */
export function commandsFor(args: readonly string[]): readonly CommandEntry[] {
  const named = commands.find((c) => c.name === args[0]);
  return named ? [named] : commands;
}

/** Every subcommand's name, in help order (pure). */
export function commandNames(): string[] {
  return commands.map((c) => c.name);
}
