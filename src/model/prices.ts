import { PlatctlError } from '../core/errors.js';

/** What one compute profile costs and holds. */
interface ProfilePrice {
  /**
   * Price of one instance-hour (one worker node's hour, for Kubernetes profiles in a plan's
   * estimate), in {@link PriceFile.currency}.
   */
  readonly hourly?: number;
  /** GPUs of one instance (one node, for Kubernetes profiles). */
  readonly gpus?: number;
}

/**
 * A price file (`--prices FILE`): per compute profile, the price of an instance-hour and the GPUs
 * it holds. The API has no read of profiles, so GPU counts default to {@link DEFAULT_GPUS}.
 *
 * ```yaml
 * currency: USD
 * profiles:
 *   bmaas-h100: { hourly: 98.32, gpus: 8 }
 *   bmaas-l40s: { hourly: 24 }
 * ```
 */
export interface PriceFile {
  readonly currency: string;
  readonly profiles: Readonly<Record<string, ProfilePrice>>;
}

/**
 * GPUs per instance of the profiles the platform documents, per worker node for `gpu-k8s`
 * (docs/api-assumptions.md, "GPUs per instance").
 */
const DEFAULT_GPUS: Readonly<Record<string, number>> = {
  'bmaas-h100': 8,
  'bmaas-l40s': 8,
  'gpu-k8s': 8,
};

/** GPUs of one instance of `profile`: the price file's, else the default; undefined if unknown. */
export function gpusOf(profile: string, prices?: PriceFile): number | undefined {
  return prices?.profiles[profile]?.gpus ?? DEFAULT_GPUS[profile];
}

const isCount = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Checks a parsed price file; every problem is a `config` error naming the file and field. Pure. */
export function parsePrices(doc: unknown, file: string): PriceFile {
  const bad = (what: string) => new PlatctlError('config', `${file}: ${what}`);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw bad('must be a map with currency and profiles');
  }
  const { currency = 'USD', profiles } = doc as Record<string, unknown>;
  if (typeof currency !== 'string' || currency === '') throw bad('currency must be a string');
  if (profiles === null || typeof profiles !== 'object' || Array.isArray(profiles)) {
    throw bad('profiles must map each compute profile to {hourly, gpus}');
  }
  const out: Record<string, ProfilePrice> = {};
  for (const [name, value] of Object.entries(profiles)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw bad(`profiles.${name} must be a map of hourly and gpus`);
    }
    const { hourly, gpus, ...rest } = value as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw bad(`profiles.${name}.${unknown[0]} is not hourly or gpus`);
    if (hourly !== undefined && !isCount(hourly))
      throw bad(`profiles.${name}.hourly must be a number >= 0`);
    if (gpus !== undefined && !(isCount(gpus) && Number.isInteger(gpus))) {
      throw bad(`profiles.${name}.gpus must be a whole number >= 0`);
    }
    out[name] = {
      ...(hourly !== undefined ? { hourly: hourly as number } : {}),
      ...(gpus !== undefined ? { gpus: gpus as number } : {}),
    };
  }
  return { currency, profiles: out };
}
