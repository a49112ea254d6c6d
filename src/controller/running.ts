import type { AddressInfo } from 'node:net';
import type { ControllerControls } from './http/controls.js';
import type { ControllerLoop } from './loop/loop.js';
import type { ControllerMetrics } from './status/metrics.js';
import type { ControllerStatus } from './status/status.js';

/** A started controller. */
export interface RunningController {
  readonly address: AddressInfo;
  readonly status: ControllerStatus;
  readonly loop: ControllerLoop;
  readonly metrics: ControllerMetrics;
  /** See {@link ControllerControls.approvePrune}. */
  approvePrune(runId: string): Promise<boolean>;
  /** See {@link ControllerControls.approve}. */
  approve(runId: string): Promise<boolean>;
  /** Graceful: no new action, the running step recorded, lease released, server closed. */
  stop(): Promise<void>;
}

/** The handle of a started controller; `shutdown` runs once, however often stop is asked. */
export function started(
  parts: Pick<RunningController, 'address' | 'status' | 'loop' | 'metrics'> & {
    readonly controls: ControllerControls;
  },
  shutdown: () => Promise<void>,
): RunningController {
  let stopping: Promise<void> | undefined;
  const { controls, ...shown } = parts;
  return {
    ...shown,
    approvePrune: (runId) => controls.approvePrune(runId),
    approve: (runId) => controls.approve(runId),
    stop: () => {
      stopping ??= shutdown();
      return stopping;
    },
  };
}
