import { describe, expect, it } from 'vitest';
import { assignedTo, ownerOf } from '../../src/controller/leadership/shards/assign.js';

const shards = Array.from({ length: 300 }, (_, i) => `project:p${i}`);
const replicas = ['r-a', 'r-b', 'r-c'];

describe('which replica owns which shard', () => {
  it('gives every shard exactly one owner, the same whatever order the replicas are listed in', () => {
    for (const s of shards) {
      expect(ownerOf(s, replicas)).toBe(ownerOf(s, [...replicas].reverse()));
    }
    const parts = replicas.map((r) => assignedTo(r, shards, replicas));
    expect(parts.reduce((n, p) => n + p.size, 0)).toBe(shards.length);
    // rendezvous hashing spreads them: each of three holds roughly a third
    for (const p of parts) expect(p.size).toBeGreaterThan(60);
  });

  it("moves only the leaver's shards when a replica leaves, and only the joiner's when one joins", () => {
    const before = new Map(shards.map((s) => [s, ownerOf(s, replicas)]));
    const left = ['r-a', 'r-c'];
    for (const s of shards) {
      if (before.get(s) !== 'r-b') expect(ownerOf(s, left)).toBe(before.get(s));
    }
    const joined = [...replicas, 'r-d'];
    for (const s of shards) {
      const now = ownerOf(s, joined);
      expect(now === before.get(s) || now === 'r-d').toBe(true);
    }
    expect(ownerOf('global', [])).toBeUndefined();
  });
});
