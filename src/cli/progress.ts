import type { RunEvent } from '../reconcile/events.js';
import { colors, describe } from '../reconcile/render/text.js';

/**
 * Renders engine events as one line each (I/O: writes to `out`): starts, progress with elapsed
 * time on long waits, and each finish. Observation counts only when `verbose`.
 */
export function progressPrinter(
  out: NodeJS.WritableStream,
  options: { color?: boolean; verbose?: boolean } = {},
): (e: RunEvent) => void {
  const c = colors(options.color ?? false);
  const secs = (ms: number) => `${Math.round(ms / 1000)}s`;
  // one line per wait state, then one every 5 s: long waits show their elapsed time, not noise
  const lastShown = new Map<string, { message: string; at: number }>();
  const worthShowing = (id: string, message: string, elapsedMs: number) => {
    const state = message.replace(/[\d.]+\s*(ms|s|m)\b/g, '');
    const last = lastShown.get(id);
    if (last && last.message === state && elapsedMs - last.at < 5000) return false;
    lastShown.set(id, { message: state, at: elapsedMs });
    return true;
  };
  return (e) => {
    switch (e.type) {
      case 'observe':
        if (options.verbose) out.write(c.dim(`observed ${e.count} ${e.kind}\n`));
        return;
      case 'adopted':
        out.write(`${e.key}: adopted (created by an interrupted run)\n`);
        return;
      case 'found':
        out.write(
          `${e.key}: found, not created by platctl (an interrupted create could not be proven ours)\n`,
        );
        return;
      case 'start':
        out.write(`${e.action.key}: ${describe(e.action)}...\n`);
        return;
      case 'progress':
        if (worthShowing(e.action.id, e.message, e.elapsedMs)) {
          out.write(c.dim(`${e.action.key}: ${e.message} [${secs(e.elapsedMs)}]\n`));
        }
        return;
      case 'finish': {
        const o = e.outcome;
        if (e.action.type === 'noop') return;
        if (o.status === 'succeeded') {
          out.write(
            c.green(`${e.action.key}: ${describe(e.action)} done [${secs(o.elapsedMs)}]\n`),
          );
        } else if (o.status === 'failed') {
          out.write(c.red(`${e.action.key}: ${describe(e.action)} failed: ${o.error}\n`));
        } else if (o.status === 'skipped') {
          out.write(
            c.yellow(`${e.action.key}: ${describe(e.action)} skipped (${o.because} failed)\n`),
          );
        }
        return;
      }
      case 'stopping':
        out.write(c.yellow(`stopping: ${e.reason}\n`));
        return;
      default: {
        const never: never = e;
        return never;
      }
    }
  };
}
