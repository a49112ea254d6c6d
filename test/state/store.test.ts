import { describe, expect, it } from 'vitest';
import type { LiveObject } from '../../src/providers/types.js';
import { adoptPending, createRecorder } from '../../src/reconcile/record.js';
import { openStateStore } from '../../src/state/index.js';
import { act, planOf } from '../reconcile/helpers.js';
import { m } from '../reconcile/manifests.js';

const live = (key: string): LiveObject => ({
  key,
  ref: { kind: 'Workspace', project: 'p', name: key.split('/').at(-1)! },
  body: {},
});

describe('state store', () => {
  it('round-trips inventory, last-applied and pending records', () => {
    const s = openStateStore(':memory:');
    s.putInventory({
      key: 'User/a',
      kind: 'User',
      ref: { kind: 'User', name: 'a', id: 'u1' },
      id: 'u1',
      createdByPlatctl: true,
      protected: false,
    });
    s.putLastApplied('Workspace/p/ws', m.workspace('p', 'ws'));
    expect(s.inventory()).toEqual([
      {
        key: 'User/a',
        kind: 'User',
        ref: { kind: 'User', name: 'a', id: 'u1' },
        id: 'u1',
        createdByPlatctl: true,
        protected: false,
      },
    ]);
    expect(s.lastApplied().get('Workspace/p/ws')).toEqual(m.workspace('p', 'ws'));
    s.close();
  });

  it('adopts a pending create that is live instead of creating it again', () => {
    const s = openStateStore(':memory:');
    s.beginPending({
      key: 'Workspace/p/ws',
      actionId: 'Workspace/p/ws#create',
      ref: { kind: 'Workspace', project: 'p', name: 'ws' },
      startedAt: 1,
    });
    s.beginPending({
      key: 'Workspace/p/gone',
      actionId: 'Workspace/p/gone#create',
      ref: { kind: 'Workspace', project: 'p', name: 'gone' },
      startedAt: 1,
    });
    adoptPending(s, [live('Workspace/p/ws')]);
    expect(s.pending()).toEqual([]);
    expect(s.inventory().map((e) => [e.key, e.createdByPlatctl])).toEqual([
      ['Workspace/p/ws', true],
    ]);
    s.close();
  });

  it('records last-applied only when every action of a key succeeded', () => {
    const s = openStateStore(':memory:');
    const create = act('ComputeInstance/p/ws/i#create', [], 'create');
    const publish = act('ComputeInstance/p/ws/i#publish', [create.id], 'publish');
    const other = act('Workspace/p/ws#create', [], 'create');
    const plan = planOf([create, publish, other]);
    const desired = new Map([
      ['ComputeInstance/p/ws/i', m.instance('p', 'ws', 'i')],
      ['Workspace/p/ws', m.workspace('p', 'ws')],
    ]);
    const r = createRecorder(s, plan, desired, 'run-1', () => 5);
    r.beforeStart(create);
    expect(s.pending().map((p) => p.key)).toEqual(['ComputeInstance/p/ws/i']);
    r.settled(create, { status: 'succeeded', elapsedMs: 1 });
    expect(s.pending()).toEqual([]);
    expect(s.inventory().map((e) => e.key)).toEqual(['ComputeInstance/p/ws/i']);
    r.settled(publish, { status: 'failed', elapsedMs: 1, error: 'boom', code: 'api' });
    r.beforeStart(other);
    r.settled(other, { status: 'succeeded', elapsedMs: 1 });
    expect([...s.lastApplied().keys()]).toEqual(['Workspace/p/ws']);
    s.close();
  });
});
