import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyHeaders } from '../helpers/key-header.js';
import { manifestDir, type World, world, writes } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

const USER = `apiVersion: platctl.io/v1alpha1
kind: User
metadata:
  name: dana@acme.example
spec:
  first_name: Dana
  last_name: Reyes
  user_type: CONSOLE
  passwordFrom:
    env: PLATCTL_DEMO_PASSWORD
`;
const ROLE = `apiVersion: platctl.io/v1alpha1
kind: ProjectAssignment
metadata:
  name: dana-platform
  project: platform
spec:
  user: dana@acme.example
  roles:
    - id: role-project-admin
      name: PROJECT_ADMIN
      scope: PROJECT
      role_type: BASE
`;
const BYSTANDER = `apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: bystander
  project: platform
`;

/** A manifests directory holding the bystander workspace and, when asked, Dana and her role. */
const manifests = (withDana: boolean): string =>
  manifestDir(w, 'dana', {
    'bystander.yaml': BYSTANDER,
    ...(withDana ? { 'user.yaml': USER, 'role.yaml': ROLE } : {}),
  });

/** Dana's roles on the platform, as the emulator holds them. */
function danaRoles(): string[] {
  const users = w.emulator.store.list<{ id: string; username: string }>('users');
  const dana = users.find((u) => u.username === 'dana@acme.example');
  if (!dana) return [];
  return w.emulator.store
    .list<{ accountId: string; project: string; roleName: string }>('assignments')
    .filter((a) => a.accountId === dana.id)
    .map((a) => `${a.project}/${a.roleName}`);
}

describe('pruning a user together with its project role', () => {
  it('takes the role back before deleting the user, and every later prune is clean', async () => {
    expect((await w.run({ mode: 'apply', paths: [manifests(true)] })).status).toBe('applied');
    expect(danaRoles()).toEqual(['platform/PROJECT_ADMIN']);

    const before = await w.last();
    const pruned = await w.run({ mode: 'apply', paths: [manifests(false)], prune: true });
    expect(pruned.outcomes).toBeDefined();
    expect(Object.entries(pruned.outcomes!).filter(([, o]) => o.status !== 'succeeded')).toEqual(
      [],
    );
    expect(pruned.status).toBe('applied');
    const sent = writes(await w.journal(before)).map((e) => `${e.method} ${e.status} ${e.path}`);
    const unassign = sent.findIndex((s) => s.includes('/unassignfromproject/'));
    const remove = sent.findIndex((s) => s.startsWith('DELETE') && s.includes('/auth/v1/users/'));
    expect(unassign, sent.join('\n')).toBeGreaterThanOrEqual(0);
    expect(remove, sent.join('\n')).toBeGreaterThan(unassign);
    expect(sent.filter((s) => / 404 /.test(s))).toEqual([]);

    const again = await w.run({ mode: 'apply', paths: [manifests(false)], prune: true });
    expect(again.status).toBe('in-sync');
  }, 60_000);

  it('grants the roles again when the user is recreated: the plan does not say "No changes"', async () => {
    await w.run({ mode: 'apply', paths: [manifests(true)] });
    await w.run({ mode: 'apply', paths: [manifests(false)], prune: true });
    expect(danaRoles()).toEqual([]);

    const planned = await w.run({ mode: 'plan', paths: [manifests(true)] });
    const changing = planned.plan!.actions.filter((a) => a.type !== 'noop').map((a) => a.id);
    expect(changing).toEqual([
      'ProjectAssignment/platform/dana-platform#assign',
      'User/dana@acme.example#create',
    ]);
    const assign = planned.plan!.actions.find((a) => a.type === 'assign')!;
    expect(assign.dependsOn).toEqual(['User/dana@acme.example#create']);
    expect(assign.reason.message).toContain('PROJECT_ADMIN');

    expect((await w.run({ mode: 'apply', paths: [manifests(true)] })).status).toBe('applied');
    expect(danaRoles()).toEqual(['platform/PROJECT_ADMIN']);
    expect((await w.run({ mode: 'plan', paths: [manifests(true)] })).changes).toBe(false);
  }, 60_000);

  it('counts a role whose user is already gone as taken back, not as a failure', async () => {
    await w.run({ mode: 'apply', paths: [manifests(true)] });
    // someone deletes the user outside git (the platform drops its roles with it)
    const dana = w.emulator.store
      .list<{ id: string; username: string }>('users')
      .find((u) => u.username === 'dana@acme.example')!;
    const res = await fetch(`${w.emulator.url}/auth/v1/users/${dana.id}/`, {
      method: 'DELETE',
      headers: { ...keyHeaders(w.apiKey) },
    });
    expect(res.status).toBeLessThan(300);
    const pruned = await w.run({ mode: 'apply', paths: [manifests(false)], prune: true });
    expect(pruned.status, JSON.stringify(pruned.outcomes)).toBe('applied');
    const again = await w.run({ mode: 'apply', paths: [manifests(false)], prune: true });
    expect(again.status).toBe('in-sync');
  }, 60_000);

  it('counts a delete answered 404 (gone meanwhile) as done', async () => {
    await w.run({ mode: 'apply', paths: [manifests(true)] });
    await w.fault({ path: '^/apis/.*/workspaces/bystander$', method: 'DELETE', status: 404 });
    const pruned = await w.run({
      mode: 'apply',
      paths: [manifestDir(w, 'dana', { 'user.yaml': USER, 'role.yaml': ROLE })],
      prune: true,
    });
    expect(pruned.outcomes?.['Workspace/platform/bystander#delete']?.status).toBe('succeeded');
    expect(pruned.status).toBe('applied');
  }, 60_000);
});
