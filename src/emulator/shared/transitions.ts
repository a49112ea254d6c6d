import type { EmuContext, TransitionName } from '../http/types.js';

/** When (epoch ms on the emulator clock) a transition started at `startMs` ends. */
export function transitionEnd(ctx: EmuContext, startMs: number, name: TransitionName): number {
  return startMs + ctx.config.transitionSeconds[name] * 1000;
}

/** Whether a transition started at `startMs` has finished by the emulator clock's now. */
export function transitionDone(ctx: EmuContext, startMs: number, name: TransitionName): boolean {
  return ctx.clock.now() >= transitionEnd(ctx, startMs, name);
}
