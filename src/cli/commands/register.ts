import type { Command } from 'commander';

/** Registers one subcommand's options and action on the program. */
export type RegisterCommand = (program: Command) => void;
