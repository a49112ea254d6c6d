import { describe, expect, it } from 'vitest';
import { AbortGroups } from '../../src/core/abort-groups.js';

describe('AbortGroups', () => {
  it('listens once per signal and hands each member still waiting to the handler, once', () => {
    const handed: [string, unknown][] = [];
    const groups = new AbortGroups<string>((m, reason) => handed.push([m, reason]));
    const run = new AbortController();
    let listeners = 0;
    const add = run.signal.addEventListener.bind(run.signal);
    run.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof add;
    for (const m of ['a', 'b', 'c']) groups.add(run.signal, m);
    groups.delete(run.signal, 'b'); // it started: not aborted with the rest
    expect(listeners).toBe(1);
    const reason = new Error('stopped');
    run.abort(reason);
    expect(handed).toEqual([
      ['a', reason],
      ['c', reason],
    ]);
    groups.add(new AbortController().signal, 'other');
    expect(handed).toHaveLength(2); // another signal's members are not this one's
  });

  it('skips a member the handler took out while the abort walks them (it no longer waits)', () => {
    const handed: number[] = [];
    const run = new AbortController();
    const groups: AbortGroups<number> = new AbortGroups<number>((m) => {
      handed.push(m);
      groups.delete(run.signal, m + 1); // settling one may settle the next: it is not handed
    });
    for (const m of [1, 2, 3]) groups.add(run.signal, m);
    run.abort();
    expect(handed).toEqual([1, 3]);
  });
});
