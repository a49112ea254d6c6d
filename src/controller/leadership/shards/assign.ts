import { createHash } from 'node:crypto';

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
