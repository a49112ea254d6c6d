import { describe, expect, it } from 'vitest';
import { mergeMemory, parseMemory } from '../../../src/controller/notify/memory.js';

describe('alert memory', () => {
  it('reads only a document it knows, keeping string keys and marks', () => {
    expect(parseMemory(undefined)).toBeUndefined();
    expect(parseMemory({ version: 2, keys: {} })).toBeUndefined();
    expect(parseMemory({ version: 1 })).toBeUndefined();
    expect(
      parseMemory({
        version: 1,
        failing: 'failed:a1',
        policy: 7,
        keys: { failed: ['b', 3, 'a'], drifted: 'x', corrected: ['z', 'y'], prune: ['q', 'p'] },
      }),
    ).toEqual({
      version: 1,
      failing: 'failed:a1',
      keys: { failed: ['b', 'a'], drifted: [], corrected: ['y', 'z'], prune: ['p', 'q'] },
    });
  });

  it('joins two replicas: the keys of both, each mark from the first where it has one', () => {
    const own = parseMemory({
      version: 1,
      applied: 'a1',
      keys: { failed: ['k1'], drifted: ['d1'], corrected: [] },
    });
    const other = parseMemory({
      version: 1,
      applied: 'a0',
      rejected: 'b2',
      keys: { failed: ['k2', 'k1'], drifted: [], corrected: ['c1'], prune: ['p1'] },
    });
    if (!own || !other) throw new Error('unreadable memory');
    expect(mergeMemory(own, other)).toEqual({
      version: 1,
      applied: 'a1',
      rejected: 'b2',
      keys: { failed: ['k1', 'k2'], drifted: ['d1'], corrected: ['c1'], prune: ['p1'] },
    });
  });
});
