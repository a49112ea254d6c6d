import { PlatctlError } from '../../core/errors.js';
import { ApiError, NetworkError, RequestTimeoutError } from '../../model/api-errors.js';
import type { ProviderPorts } from '../../model/provider.js';
import { type TypicalWait, typicalWaitMs } from '../../model/typical-waits.js';

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
 * poll: "waiting for VPC platform/vpc-main: deploying, 40s". The first look is immediate. A look
 * that fails for a passing reason (a 5xx or 429 after the client's own retries, a dropped
 * connection, a timeout) is one more poll, not a failure: the wait goes on until its deadline.
 * `typical` names the platform's transition waited for, whose usual duration progress carries.
 */
export async function waitUntil(
  ports: ProviderPorts,
  what: string,
  read: () => Promise<Poll>,
  typical?: TypicalWait,
): Promise<void> {
  const expectedMs = typicalWaitMs(typical);
  const started = ports.clock.now();
  for (;;) {
    if (ports.signal.aborted) {
      throw new PlatctlError('aborted', `stopped waiting for ${what}: interrupted`);
    }
    const poll = await readOrPassing(read);
    const elapsed = ports.clock.now() - started;
    if (poll.failed) throw new PlatctlError('api', `${what}: ${poll.failed}`);
    if (poll.done) return;
    if (elapsed >= ports.wait.timeoutMs) {
      throw new PlatctlError(
        'timeout',
        `${what}: still ${poll.status} after ${Math.round(elapsed / 1000)}s`,
      );
    }
    ports.progress(
      `waiting for ${what}: ${poll.status}, ${Math.round(elapsed / 1000)}s`,
      expectedMs,
    );
    try {
      await ports.clock.sleep(ports.wait.pollMs, ports.signal);
    } catch (err) {
      throw new PlatctlError('aborted', `stopped waiting for ${what}: interrupted`, { cause: err });
    }
  }
}

/** The poll, or a `status` naming the passing error that stood in for it. */
async function readOrPassing(read: () => Promise<Poll>): Promise<Poll> {
  try {
    return await read();
  } catch (err) {
    if (!passing(err)) throw err;
    return { done: false, status: `unknown (${(err as Error).message})` };
  }
}

function passing(err: unknown): boolean {
  if (err instanceof NetworkError || err instanceof RequestTimeoutError) return true;
  return err instanceof ApiError && (err.status >= 500 || err.status === 429);
}
