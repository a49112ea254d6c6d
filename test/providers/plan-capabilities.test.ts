import { describe, expect, it } from 'vitest';
import type { ManifestOf } from '../../src/model/manifest.js';
import { blueprintPublishProvider } from '../../src/providers/blueprint-publish.js';
import { computeInstanceProvider } from '../../src/providers/compute-instance.js';
import { instance, publish } from './fixtures.js';
import { liveOf, types } from './plan-helpers.js';

/** Everything the API can do is expressible in a manifest (issue 15). */
type Instance = ManifestOf<'ComputeInstance'>;
const annotated = (annotations: Record<string, string>, m: Instance = instance()): Instance => ({
  ...m,
  metadata: { ...m.metadata, annotations: { ...m.metadata.annotations, ...annotations } },
});
const running = (m: Instance = instance()) => liveOf(m, { status: 'success', powerState: 'on' });
const plan = (desired: Instance, lastApplied?: Instance, live = running()) =>
  computeInstanceProvider.plan({
    key: 'k',
    desired,
    live,
    ...(lastApplied ? { lastApplied } : {}),
  });

describe('one-shot power reset and cycle (platctl.io/power-reset, platctl.io/power-cycle)', () => {
  const reset = (token: string) => annotated({ 'platctl.io/power-reset': token });

  it('performs a reset once per new value, with a reason naming the request', () => {
    const actions = plan(reset('2026-11-23T10:00Z'), instance());
    expect(actions).toMatchObject([
      {
        type: 'power',
        powerAction: 'Power reset',
        reason: { code: 'requested' },
      },
    ]);
    expect(actions[0]!.reason.message).toContain('platctl.io/power-reset');
    expect(actions[0]!.reason.message).toContain('2026-11-23T10:00Z');
    // recorded in the last-applied manifest: the same value never repeats
    expect(plan(reset('2026-11-23T10:00Z'), reset('2026-11-23T10:00Z'))).toEqual([]);
    expect(types(plan(reset('2'), reset('1')))).toEqual(['power']);
    // removing the annotation asks for nothing
    expect(plan(instance(), reset('1'))).toEqual([]);
  });

  it('power-cycle likewise, and both in one run when both changed', () => {
    const both = annotated({ 'platctl.io/power-reset': 'a', 'platctl.io/power-cycle': 'b' });
    expect(plan(both, instance()).map((a) => (a as { powerAction?: string }).powerAction)).toEqual([
      'Power reset',
      'Power cycle',
    ]);
  });

  it('never on a first sight (no record), on a new instance, or one that is not running', () => {
    expect(plan(reset('1'))).toEqual([]); // adopted: no record of what was asked before
    expect(types(computeInstanceProvider.plan({ key: 'k', desired: reset('1') }))).toEqual([
      'create',
      'publish',
    ]);
    const off = liveOf(instance(), { status: 'success', powerState: 'off' });
    expect(plan(reset('1'), instance(), off)).toMatchObject([{ powerAction: 'start' }]);
    const provisioning = liveOf(instance(), { status: 'provisioning' });
    expect(plan(reset('1'), instance(), provisioning)).toEqual([]);
  });
});

describe('a compute instance created but not deployed (platctl.io/deploy: "false")', () => {
  const held = (m: Instance = instance()) => annotated({ 'platctl.io/deploy': 'false' }, m);

  it('is created, and updated, without a publish', () => {
    expect(types(computeInstanceProvider.plan({ key: 'k', desired: held() }))).toEqual(['create']);
    const live = liveOf(instance(), { status: 'created' });
    expect(plan(held(), held(), live)).toEqual([]);
    expect(types(plan(held(instance('12')), held(), live))).toEqual(['update']);
  });

  it('is published once the annotation goes', () => {
    const live = liveOf(instance(), { status: 'created' });
    expect(types(plan(instance(), held(), live))).toEqual(['publish']);
  });
});

describe('BlueprintPublish spec.forceSync', () => {
  const noSync = (): ManifestOf<'BlueprintPublish'> => ({
    ...publish(),
    spec: { ...publish().spec, forceSync: false },
  });

  it('is true when omitted, so an old record plans nothing; a change to it is a change', () => {
    const withTrue = { ...publish(), spec: { ...publish().spec, forceSync: true } };
    expect(
      blueprintPublishProvider.plan({ key: 'k', desired: withTrue, lastApplied: publish() }),
    ).toEqual([]);
    const changed = blueprintPublishProvider.plan({
      key: 'k',
      desired: noSync(),
      lastApplied: publish(),
    });
    expect(changed).toMatchObject([{ type: 'force-sync', changes: [{ path: '/spec/forceSync' }] }]);
  });
});
