import { createHash } from 'node:crypto';
import type { Budget } from '../../providers/client/budget-limiter.js';

/**
 * Which replica owns `shard`: rendezvous (highest random weight) hashing over the live replicas
 * `members`, so every replica that sees the same members agrees without asking anyone, and a
 * replica joining or leaving moves only the shards it gains or had. Undefined with no member.
 * Pure.
 */
export function ownerOf(shard: string, members: readonly string[]): string | undefined {
  let best: { id: string; score: bigint } | undefined;
  for (const id of members) {
    const score = createHash('sha256').update(`${id}\0${shard}`).digest().readBigUInt64BE(0);
    if (!best || score > best.score || (score === best.score && id < best.id)) best = { id, score };
  }
  return best?.id;
}

/** The shards of `shards` that {@link ownerOf} gives to `me`. Pure. */
export function assignedTo(
  me: string,
  shards: Iterable<string>,
  members: readonly string[],
): Set<string> {
  return new Set([...shards].filter((s) => ownerOf(s, members) === me));
}

/**
 * This replica's part of one rate budget of `rps` requests per second shared by `members`
 * (sorted ids): whole requests per second split as evenly as they go (the first `rps mod n`
 * replicas take one more), so the parts sum to `rps`; below one request per second each, one
 * request per `n / rps` seconds. A replica not among `members` gets nothing. Pure.
 */
export function budgetShare(rps: number, members: readonly string[], me: string): Budget {
  const n = members.length;
  const rank = members.indexOf(me);
  if (rank < 0 || !(rps > 0)) return { cap: 0, windowMs: 1000 };
  const whole = Math.floor(rps);
  if (whole >= n) {
    return { cap: Math.floor(whole / n) + (rank < whole % n ? 1 : 0), windowMs: 1000 };
  }
  return { cap: 1, windowMs: Math.ceil((1000 * n) / rps) };
}
