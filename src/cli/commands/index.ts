import type { Command } from 'commander';

/**
 * Every subcommand registers itself through one function; add new commands here, one line each.
 */
export type RegisterCommand = (program: Command) => void;

export const commands: readonly RegisterCommand[] = [];
