import type { Clock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Heartbeat } from './heartbeat.js';

// The loop's two timed waits, apart from its state: the idle sleep that beats the watchdog, and
// the shutdown timeout that cuts a stopping step short. Both wait on the injected clock only
// (tests step a fake clock through them); neither reads the loop's fields, which the loop
// passes in: what wakes a sleep (a trigger, a stop, a lost lease) is the loop's to decide.

/**
 * Sleeps on `clock` until `ms` pass or `wake` aborts, in slices of a quarter of the watchdog's
 * threshold, beating after each, so a long interval is not mistaken for a stuck loop.
 */
export async function sleepBeating(
  clock: Clock,
  heartbeat: Heartbeat | undefined,
  ms: number,
  wake: AbortSignal,
): Promise<void> {
  const slice = heartbeat ? Math.max(1, heartbeat.thresholdMs / 4) : ms;
  const until = clock.now() + ms;
  for (let left = ms; left > 0 && !wake.aborted; left = until - clock.now()) {
    await clock.sleep(Math.min(left, slice), wake).catch(() => {});
    heartbeat?.beat('idle');
  }
}

/**
 * After `ms` (unless `ended` aborts first), logs the shutdown timeout and aborts `hardStop`,
 * which cuts what the running step still waits for. `ms` undefined: no timeout.
 */
export function armShutdownTimeout(
  ms: number | undefined,
  ports: { readonly clock: Clock; readonly logger: Logger },
  ended: AbortSignal,
  hardStop: AbortController,
): void {
  if (ms === undefined) return;
  ports.clock.sleep(ms, ended).then(
    () => {
      ports.logger.warn(
        { event: 'shutdown-timeout', timeoutMs: ms },
        'shutdown timeout: cutting the waits and requests still running; the next run resumes them',
      );
      hardStop.abort(new PlatctlError('aborted', `shutdown took longer than ${ms} ms`));
    },
    () => {},
  );
}
