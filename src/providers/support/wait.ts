import { PlatctlError } from '../../core/errors.js';
import type { ProviderPorts } from '../types.js';

/** One look at an asynchronous operation. */
export interface Poll {
  /** Finished successfully. */
  readonly done: boolean;
  /** Finished badly: the message of the error to raise. */
  readonly failed?: string;
  /** Shown in progress lines (`deploying`). */
  readonly status: string;
}

/**
 * Polls `read` every `ports.wait.pollMs` until it reports done, a failure, the timeout
 * (`PlatctlError('timeout')`) or an abort (`PlatctlError('aborted')`), with a progress line per
 * poll: "waiting for VPC platform/vpc-main: deploying, 40s". The first look is immediate.
 */
export async function waitUntil(
  ports: ProviderPorts,
  what: string,
  read: () => Promise<Poll>,
): Promise<void> {
  const started = ports.clock.now();
  for (;;) {
    if (ports.signal.aborted) {
      throw new PlatctlError('aborted', `stopped waiting for ${what}: interrupted`);
    }
    const poll = await read();
    const elapsed = ports.clock.now() - started;
    if (poll.failed) throw new PlatctlError('api', `${what}: ${poll.failed}`);
    if (poll.done) return;
    if (elapsed >= ports.wait.timeoutMs) {
      throw new PlatctlError(
        'timeout',
        `${what}: still ${poll.status} after ${Math.round(elapsed / 1000)}s`,
      );
    }
    ports.progress(`waiting for ${what}: ${poll.status}, ${Math.round(elapsed / 1000)}s`);
    try {
      await ports.clock.sleep(ports.wait.pollMs, ports.signal);
    } catch (err) {
      throw new PlatctlError('aborted', `stopped waiting for ${what}: interrupted`, { cause: err });
    }
  }
}
