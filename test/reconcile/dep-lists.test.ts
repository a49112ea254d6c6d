import { describe, expect, it } from 'vitest';
import { DepLists } from '../../src/reconcile/dep-lists.js';

// The plan's `dependsOn` lists are built as places among the sorted ids (order.ts): they must be
// exactly what a Set of ids and `[...set].sort()` gave, repeats and ids of no action included.
describe('DepLists', () => {
  it('sorts and deduplicates as [...new Set(ids)].sort() does', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const ids = Array.from(
      { length: 300 },
      (_, i) => `Service/p/vpc-${Math.floor(random() * 1e6)}#create${i % 3 ? '' : '#2'}`,
    );
    const lists = new DepLists();
    const expected = new Map(ids.map((id) => [id, new Set<string>()]));
    for (let n = 0; n < 5000; n++) {
      const id = ids[Math.floor(random() * ids.length)]!;
      const dep =
        random() < 0.05
          ? `Workspace/elsewhere-${Math.floor(random() * 10)}#create`
          : ids[Math.floor(random() * ids.length)]!;
      expected.get(id)!.add(dep);
      if (random() < 0.5 && !dep.startsWith('Workspace/elsewhere'))
        lists.of(id).addRank(lists.rankOf(dep));
      else lists.add(id, dep);
    }
    for (const id of ids) expect(lists.sorted(id)).toEqual([...expected.get(id)!].sort());
  });
});

describe('DepLists, as lists are asked for', () => {
  it('sorts again once more ids are named, and gives [] for a list nothing was added to', () => {
    const lists = new DepLists();
    expect(lists.sorted('x#create')).toEqual([]);
    lists.add('x#create', 'b#create');
    lists.add('x#create', 'a#create');
    expect(lists.sorted('x#create')).toEqual(['a#create', 'b#create']);
    lists.add('y#create', 'a#create#2');
    lists.of('x#create').addRank(lists.rankOf('a#create#2'));
    lists.add('x#create', 'b#create');
    expect(lists.sorted('x#create')).toEqual(['a#create', 'a#create#2', 'b#create']);
    expect(lists.sorted('y#create')).toEqual(['a#create#2']);
    expect(lists.sorted('z#create')).toEqual([]);
  });
});
