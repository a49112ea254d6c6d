import type { Clock } from '../../core/clock.js';

// What the lease keeper (lease-keeper.ts) is given: the store's lease, and how to keep time.

/** The state store's run lease as leader election sees it. */
export interface LeasePort {
  /** Takes or keeps the lease for this replica without waiting; false when another holds it. */
  tryAcquire(): Promise<boolean>;
  /**
   * Proves the lease is still held with a round trip to the store; rejects (or false) when it was
   * lost. Absent: {@link tryAcquire} is itself such a round trip, and renews by being asked.
   */
  renew?(): Promise<boolean>;
  /** Aborted the moment the lease held now is known lost without asking (its session ended). */
  lost?(): AbortSignal | undefined;
  /** Gives the lease up without waiting on the store, which may not answer (a missed deadline). */
  abandon?(): void;
  /** Who holds it, for people (`pid 7 on pod-b since ...`), or undefined. */
  holder(): Promise<string | undefined>;
  /** Gives it up (idempotent). */
  release(): Promise<void>;
}

/** How the keeper keeps time. */
export interface KeeperOptions {
  readonly clock: Clock;
  /**
   * A leader that has not renewed for this long stops acting at once, as client-go's leader
   * election does: shorter than the time any other replica needs to take the lease over after
   * the last renewal the store saw (two thirds of the ttl), so the two never act at once.
   * Undefined: no deadline (the lease is trusted until a renewal fails).
   */
  readonly renewDeadlineMs?: number | undefined;
  /**
   * Milliseconds the deadline is measured in, from any origin: a monotonic source in production
   * (`performance.now`), so that a wall clock stepped backwards cannot lengthen it. @default the
   * clock's `now`
   */
  readonly elapsed?: (() => number) | undefined;
  /** Jitter's source. @default Math.random */
  readonly random?: () => number;
}
