import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/model/action.js';
import { type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';
import { createProviderRegistry } from '../../src/providers/index.js';
import { plan } from '../../src/reconcile/planner.js';
import type { InventoryEntry } from '../../src/state/types.js';
import { m } from './manifests.js';

const providers = createProviderRegistry();
const live = (x: Manifest, id?: string): LiveObject => ({
  key: manifestKey(x),
  ref: {
    kind: x.kind,
    name: x.metadata.name,
    ...(x.metadata.project ? { project: x.metadata.project } : {}),
    ...(x.metadata.workspace ? { workspace: x.metadata.workspace } : {}),
    ...(id ? { id } : {}),
  },
  body: JSON.parse(JSON.stringify(x)) as Record<string, unknown>,
  status: x.kind === 'ComputeInstance' ? 'success' : 'deployed',
});
const owned = (x: Manifest): InventoryEntry => ({
  key: manifestKey(x),
  kind: x.kind,
  ref: live(x).ref,
  createdByPlatctl: true,
  protected: false,
});
const byKey = (...ms: Manifest[]) => new Map(ms.map((x) => [manifestKey(x), x]));
const deps = (actions: readonly Action[], id: string) =>
  actions.find((a) => a.id === id)?.dependsOn;

describe('removals in reverse of creation', () => {
  it('takes a pruned role back before deleting its user', () => {
    const user = m.user('u@x.io');
    const role = m.assignment('p', 'a', 'u@x.io');
    const p = plan([], [live(user, 'acc-1')], byKey(user, role), {
      providers,
      inventory: [owned(user), owned(role)],
      prune: true,
    });
    expect(p.actions.map((a) => a.id).sort()).toEqual([
      'ProjectAssignment/p/a#unassign',
      'User/u@x.io#delete',
    ]);
    expect(deps(p.actions, 'User/u@x.io#delete')).toEqual(['ProjectAssignment/p/a#unassign']);
    expect(deps(p.actions, 'ProjectAssignment/p/a#unassign')).toEqual([]);
  });

  it('deletes an instance before its workspace even without last-applied manifests', () => {
    const ws = m.workspace('p', 'ws');
    const vpc = m.service('p', 'vpc');
    const vm = m.instance('p', 'ws', 'i');
    const p = plan([], [live(ws), live(vpc), live(vm)], new Map(), {
      providers,
      inventory: [owned(ws), owned(vpc), owned(vm)],
      prune: true,
    });
    expect(deps(p.actions, 'Workspace/p/ws#delete')).toEqual(['ComputeInstance/p/ws/i#delete']);
    expect(deps(p.actions, 'Service/p/vpc#delete')).toEqual(['ComputeInstance/p/ws/i#delete']);
    expect(deps(p.actions, 'ComputeInstance/p/ws/i#delete')).toEqual([]);
  });
});

describe('a recreated user', () => {
  it('is granted every declared role again, after its create, whatever was last applied', () => {
    const user = m.user('u@x.io');
    const role = m.assignment('p', 'a', 'u@x.io');
    const other = m.assignment('p', 'b', 'someone@x.io');
    const p = plan([user, role, other], [], byKey(user, role, other), {
      providers,
      inventory: [owned(user), owned(role), owned(other)],
    });
    const assign = p.actions.find((a) => a.key === 'ProjectAssignment/p/a');
    expect(assign).toMatchObject({
      type: 'assign',
      user: 'u@x.io',
      roles: [{ id: 'role-project-admin', name: 'PROJECT_ADMIN' }],
      reason: { code: 'absent' },
      dependsOn: ['User/u@x.io#create'],
    });
    expect(p.actions.filter((a) => a.key === 'ProjectAssignment/p/a')).toHaveLength(1);
    // an assignment of a user who is not recreated is planned as before
    expect(p.actions.find((a) => a.key === 'ProjectAssignment/p/b')?.type).toBe('noop');
  });
});
