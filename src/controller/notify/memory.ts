/**
 * What the tracker remembers, as the state store keeps it (JSON): the run's own marks, and the
 * keys each condition was last alerted for — a shape a sharded controller splits by the shard of
 * each key and joins again, without knowing what the marks mean.
 */
export interface AlertMemory {
  readonly version: 1;
  /** `fetch` or `failed:<revision>` while runs fail. */
  readonly failing?: string;
  /** The rejected HEAD revision while the source is not ready. */
  readonly rejected?: string;
  /** The revision last alerted as applied. */
  readonly applied?: string;
  /** The policy hold alerted, while it lasts ({@link policyMark}). */
  readonly policy?: string;
  readonly keys: {
    readonly failed: readonly string[];
    readonly drifted: readonly string[];
    readonly corrected: readonly string[];
    /** Absent: no prune held. */
    readonly prune?: readonly string[];
  };
}

/** A remembered document as {@link AlertMemory} (keys sorted), or undefined for one it does not know. */
export function parseMemory(doc: unknown): AlertMemory | undefined {
  const m = doc as Partial<AlertMemory> | undefined;
  if (m?.version !== 1 || typeof m.keys !== 'object' || m.keys === null) return undefined;
  const list = (v: unknown) =>
    Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  const text = (v: unknown) => (typeof v === 'string' ? { v } : undefined);
  const failing = text(m.failing);
  const rejected = text(m.rejected);
  const applied = text(m.applied);
  const policy = text(m.policy);
  return {
    version: 1,
    ...(failing ? { failing: failing.v } : {}),
    ...(rejected ? { rejected: rejected.v } : {}),
    ...(applied ? { applied: applied.v } : {}),
    ...(policy ? { policy: policy.v } : {}),
    keys: {
      failed: list(m.keys.failed),
      drifted: list(m.keys.drifted),
      corrected: [...list(m.keys.corrected)].sort(),
      ...(m.keys.prune ? { prune: [...list(m.keys.prune)].sort() } : {}),
    },
  };
}

/**
 * Two replicas' memories joined (a shard taken over): the keys of both, and each mark from `own`
 * where it has one, else from `other`.
 */
export function mergeMemory(own: AlertMemory, other: AlertMemory): AlertMemory {
  const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];
  const prune =
    own.keys.prune || other.keys.prune
      ? { prune: union(own.keys.prune ?? [], other.keys.prune ?? []).sort() }
      : {};
  const mark = (a: string | undefined, b: string | undefined) => a ?? b;
  const failing = mark(own.failing, other.failing);
  const rejected = mark(own.rejected, other.rejected);
  const applied = mark(own.applied, other.applied);
  const policy = mark(own.policy, other.policy);
  return {
    version: 1,
    ...(failing !== undefined ? { failing } : {}),
    ...(rejected !== undefined ? { rejected } : {}),
    ...(applied !== undefined ? { applied } : {}),
    ...(policy !== undefined ? { policy } : {}),
    keys: {
      failed: union(own.keys.failed, other.keys.failed),
      drifted: union(own.keys.drifted, other.keys.drifted),
      corrected: union(own.keys.corrected, other.keys.corrected).sort(),
      ...prune,
    },
  };
}
