/**
 * How long the platform typically takes for each asynchronous transition, in seconds: what a
 * progress line gives as the expected time of a wait. The spec says only that provisioning "can
 * take several minutes"; these are the emulator's realistic defaults (`DEFAULT_TRANSITION_SECONDS`,
 * a test keeps them equal), recorded with their sources in docs/api-assumptions.md.
 */
export const TYPICAL_WAIT_SECONDS = {
  /** A VPC service from publish to `deployed`. */
  'vpc-deploy': 30,
  /** A compute instance from publish to `success`. */
  'compute-provision': 300,
  /** A compute instance from delete to gone. */
  'compute-delete': 60,
  /** A cluster from create to `ready`. */
  'cluster-provision': 600,
  /** A cluster from delete to gone. */
  'cluster-delete': 120,
} as const;

/** One of the platform's asynchronous transitions. */
export type TypicalWait = keyof typeof TYPICAL_WAIT_SECONDS;

/** The expected duration of `wait` in milliseconds; undefined for none (pure). */
export function typicalWaitMs(wait: TypicalWait | undefined): number | undefined {
  return wait === undefined ? undefined : TYPICAL_WAIT_SECONDS[wait] * 1000;
}
