import type { Command } from 'commander';
import { registerApply } from './apply.js';
import { registerController } from './controller.js';
import { registerCtl } from './ctl.js';
import { registerDemo } from './demo.js';
import { registerEmulator } from './emulator.js';
import { registerImport } from './import.js';
import { registerPlan } from './plan.js';
import { registerState } from './state.js';
import { registerUsage } from './usage.js';
import { registerValidate } from './validate.js';

/**
 * Every subcommand registers itself through one function; add new commands here, one line each.
 */
export type RegisterCommand = (program: Command) => void;

export const commands: readonly RegisterCommand[] = [
  registerValidate,
  registerEmulator,
  registerPlan,
  registerApply,
  registerDemo,
  registerController,
  registerCtl,
  registerImport,
  registerUsage,
  registerState,
];
