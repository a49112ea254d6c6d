import type { Condition, InstanceSchedule } from './resources.js';

/**
 * Usage and the fleet as the page reads them (`GET /api/v1/usage`, `/usage/daily`, `/fleet`,
 * docs/control-api.md): hours, GPU-hours and cost per line and day, and the compute instances.
 */

/** One line of `GET /api/v1/usage`. */
export interface UsageItem {
  readonly project: string;
  readonly profile: string;
  readonly instance?: string;
  readonly hours: number;
  readonly gpuHours?: number;
  /** With the controller's `--prices`: hours × the profile's hourly price. */
  readonly cost?: number;
  readonly gpus?: number;
}

/** `GET /api/v1/usage/daily`: one day of the trend. */
export interface UsageDay {
  readonly day: string;
  readonly hours: number;
  readonly gpuHours: number;
  readonly cost?: number;
}

/** `GET /api/v1/fleet`. */
export interface Fleet {
  readonly total: number;
  readonly on: number;
  readonly off: number;
  readonly gpusOn: number;
  readonly items: readonly {
    readonly key: string;
    readonly project: string;
    readonly workspace: string;
    readonly name: string;
    readonly profile: string;
    readonly power: 'on' | 'off';
    readonly gpus?: number;
    readonly condition?: Condition;
    readonly reason?: string;
    readonly schedule?: InstanceSchedule;
  }[];
}
