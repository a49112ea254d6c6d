import { describe, expect, it } from 'vitest';
import type { ProposedAction } from '../../src/model/action.js';
import { KINDS, type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject, PlanInput } from '../../src/model/provider.js';
import { type PlannerRegistry, plan } from '../../src/reconcile/planner.js';
import { m } from './manifests.js';

/** A fake provider for every kind: create when absent, update (drift or changed) when bodies differ. */
function fakeProviders(): PlannerRegistry {
  const planOne = ({ key, desired, live, lastApplied }: PlanInput): ProposedAction[] => {
    if (!desired)
      return live
        ? [
            {
              type: 'delete',
              key,
              target: live.ref,
              reason: { code: 'removed-from-git', message: 'gone' },
              changes: [],
            },
          ]
        : [];
    const target = {
      kind: desired.kind,
      name: desired.metadata.name,
      project: desired.metadata.project!,
    };
    if (!live)
      return [
        {
          type: 'create',
          key,
          target,
          desired,
          reason: { code: 'absent', message: 'new' },
          changes: [],
        },
      ];
    const want = JSON.stringify(desired.metadata.displayName ?? null);
    const have = JSON.stringify(live.body.displayName ?? null);
    if (want === have) return [];
    const drift = lastApplied && JSON.stringify(lastApplied.metadata.displayName ?? null) === want;
    return [
      {
        type: 'update',
        key,
        target,
        desired,
        reason: { code: drift ? 'drift' : 'changed', message: 'displayName' },
        changes: [],
      },
    ];
  };
  return Object.fromEntries(KINDS.map((k) => [k, { plan: planOne }])) as unknown as PlannerRegistry;
}

const liveOf = (x: Manifest, displayName?: string): LiveObject => ({
  key: manifestKey(x),
  ref: { kind: x.kind, name: x.metadata.name, project: x.metadata.project! },
  body: displayName === undefined ? {} : { displayName },
});

describe('plan', () => {
  it('adds a noop for a resource in sync and gives every action a stable id', () => {
    const ws = m.workspace('p', 'a');
    const p = plan([ws, m.workspace('p', 'b')], [liveOf(ws)], new Map(), {
      providers: fakeProviders(),
    });
    expect(p.actions.map((a) => a.id)).toEqual(['Workspace/p/a#noop', 'Workspace/p/b#create']);
  });

  it('reports drift without planning it when self-heal is off', () => {
    const ws = {
      ...m.workspace('p', 'a'),
      metadata: { name: 'a', project: 'p', displayName: 'A' },
    } as Manifest;
    const args = [[ws], [liveOf(ws, 'edited')], new Map([[manifestKey(ws), ws]])] as const;
    const healing = plan(...args, { providers: fakeProviders() });
    expect(healing.actions.map((a) => a.type)).toEqual(['update']);
    const off = plan(...args, { providers: fakeProviders(), selfHeal: false });
    expect(off.actions.map((a) => a.type)).toEqual(['noop']);
    expect(off.diagnostics).toEqual([
      {
        severity: 'warning',
        key: 'Workspace/p/a',
        message: 'drift not corrected (self-heal is off): displayName',
      },
    ]);
  });

  it('plans nothing for a resource that could not be read: no prune, no forget, no create', () => {
    const gone = m.workspace('p', 'unread');
    const wanted = m.workspace('p', 'wanted');
    const inv = (w: typeof gone) => ({
      key: manifestKey(w),
      kind: 'Workspace' as const,
      ref: liveOf(w).ref,
      createdByPlatctl: true,
      protected: false,
    });
    const p = plan([wanted], [], new Map([[manifestKey(gone), gone]]), {
      providers: fakeProviders(),
      prune: true,
      inventory: [inv(gone), inv(wanted)],
      unreadable: new Map([
        [manifestKey(gone), '500 listing workspaces'],
        [manifestKey(wanted), '500 listing workspaces'],
      ]),
    });
    expect(p.actions).toEqual([]);
    expect(p.forget).toBeUndefined();
    expect(p.diagnostics.map((d) => d.message)).toEqual([
      'deferred: its live state could not be read (500 listing workspaces); create not planned',
    ]);
    expect(p.unreadable).toEqual([manifestKey(gone), manifestKey(wanted)].sort());
  });

  it('never touches a live resource that platctl does not manage, even with prune', () => {
    const stranger = m.workspace('p', 'theirs');
    const adopted = m.workspace('p', 'adopted');
    const p = plan([], [liveOf(stranger), liveOf(adopted)], new Map(), {
      providers: fakeProviders(),
      prune: true,
      inventory: [
        {
          key: manifestKey(adopted),
          kind: 'Workspace',
          ref: liveOf(adopted).ref,
          createdByPlatctl: false,
          protected: false,
        },
      ],
    });
    expect(p.actions).toEqual([]);
    // the stranger is not even looked at; the found one is named as left on the platform
    expect(p.diagnostics).toEqual([
      {
        severity: 'warning',
        key: manifestKey(adopted),
        message:
          'removed from git but not created by this state: left on the platform, never pruned; ' +
          'delete it on the platform, or adopt it (platctl import --adopt --project p --kind ' +
          'Workspace --out <dir> adopts every Workspace of p) and apply --prune; or stop tracking ' +
          'it: platctl state forget Workspace/p/adopted',
      },
    ]);
    expect(p.found).toEqual([manifestKey(adopted)]);
    expect(p.leftOnPlatform?.keys).toEqual([manifestKey(adopted)]);
    expect(p.leftOnPlatform?.message).toMatch(/platctl import --adopt.*platctl state forget/);
  });

  it('prunes an owned resource only with prune, within the limit unless forced', () => {
    const owned = [1, 2, 3].map((i) => m.workspace('p', `w${i}`));
    const inventory = owned.map((x) => ({
      key: manifestKey(x),
      kind: 'Workspace' as const,
      ref: liveOf(x).ref,
      createdByPlatctl: true,
      protected: false,
    }));
    const run = (o: object) =>
      plan(
        [],
        owned.map((x) => liveOf(x)),
        new Map(),
        { providers: fakeProviders(), inventory, ...o },
      );
    expect(run({}).actions).toEqual([]);
    expect(run({ prune: true }).actions.map((a) => a.type)).toEqual(['delete', 'delete', 'delete']);
    expect(
      run({ prune: true, maxDeletes: 2 }).diagnostics.filter((d) => d.severity === 'error'),
    ).toHaveLength(1);
    expect(run({ prune: true, maxDeletes: 2, forceDeletes: true }).diagnostics).toEqual([]);
    // the controller's choice: only the deletions wait, with what they are; approval lets them go
    const held = run({ prune: true, maxDeletes: 2, overLimit: 'hold' });
    expect(held.actions).toEqual([]);
    expect(held.diagnostics.map((d) => d.severity)).toEqual(['warning']);
    expect(held.pruneHeld).toMatchObject({
      count: 3,
      limit: 2,
      keys: ['Workspace/p/w1', 'Workspace/p/w2', 'Workspace/p/w3'],
    });
    const approved = run({
      prune: true,
      maxDeletes: 2,
      overLimit: 'hold',
      approvedDeletes: held.pruneHeld?.keys,
    });
    expect(approved.actions.map((a) => a.type)).toEqual(['delete', 'delete', 'delete']);
    expect(approved.pruneHeld).toBeUndefined();
  });

  it('lets go of a pruned resource whose removal sends nothing, instead of warning forever', () => {
    const gone = m.workspace('p', 'gone');
    const inventory = [
      {
        key: manifestKey(gone),
        kind: 'Workspace' as const,
        ref: liveOf(gone).ref,
        createdByPlatctl: true,
        protected: false,
      },
    ];
    const lastApplied = new Map([[manifestKey(gone), gone]]);
    const run = (prune: boolean) =>
      plan([], [], lastApplied, { providers: fakeProviders(), inventory, prune });
    expect(run(false).forget).toBeUndefined();
    expect(run(false).diagnostics.map((d) => d.message)).toEqual([
      'no longer in git; run with --prune to stop managing it (nothing on the platform to undo)',
    ]);
    expect(run(true).actions).toEqual([]);
    expect(run(true).forget).toEqual([manifestKey(gone)]);
  });
});

describe('plan with excluded keys (resources backing off)', () => {
  const ws = m.workspace('p', 'a');
  const vm = m.instance('p', 'a', 'vm');
  const other = m.workspace('p', 'b');
  const key = manifestKey;

  it('plans nothing for an excluded key and holds back what waits on it; others unaffected', () => {
    const desired = [ws, vm, other];
    const exclude = [key(ws)];
    const before = structuredClone({ desired, exclude });
    const p = plan(desired, [], new Map(), { providers: fakeProviders(), exclude });
    expect(p.actions.map((a) => a.id)).toEqual([`${key(other)}#create`]);
    expect(p.actions[0]?.dependsOn).toEqual([]);
    expect(p.diagnostics).toEqual([
      {
        severity: 'warning',
        key: key(vm),
        message: `deferred: depends on ${key(ws)}, which is excluded from this run; create not planned`,
      },
      {
        severity: 'warning',
        key: key(ws),
        message:
          'deferred: excluded from this run (backing off after failures); create not planned',
      },
    ]);
    expect({ desired, exclude }).toEqual(before);
    // without the exclusion the same input plans all three, the instance after its workspace
    const all = plan(desired, [], new Map(), { providers: fakeProviders() });
    expect(all.actions.find((a) => a.key === key(vm))?.dependsOn).toEqual([`${key(ws)}#create`]);
  });

  it('holds nothing back for an excluded key that is in sync', () => {
    const p = plan([ws, vm], [liveOf(ws)], new Map(), {
      providers: fakeProviders(),
      exclude: [key(ws)],
    });
    expect(p.actions.map((a) => [a.id, a.dependsOn])).toEqual([[`${key(vm)}#create`, []]]);
    expect(p.diagnostics).toEqual([]);
  });

  it('defers the deletion of what an excluded deletion must wait for', () => {
    const entry = (x: Manifest) => ({
      key: key(x),
      kind: x.kind,
      ref: liveOf(x).ref,
      createdByPlatctl: true,
      protected: false,
    });
    const lastApplied = new Map([ws, vm].map((x) => [key(x), x]));
    const p = plan([], [liveOf(ws), liveOf(vm)], lastApplied, {
      providers: fakeProviders(),
      inventory: [entry(ws), entry(vm)],
      prune: true,
      exclude: [key(vm)],
    });
    // the workspace goes only after its instance, which is backing off
    expect(p.actions).toEqual([]);
    expect(p.diagnostics.map((d) => d.key)).toEqual([key(vm), key(ws)]);
  });
});
