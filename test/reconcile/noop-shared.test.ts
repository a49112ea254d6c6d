import { describe, expect, it } from 'vitest';
import { identityKey, type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';
import { createProviderRegistry } from '../../src/providers/index.js';
import { creationChanges } from '../../src/providers/support/scope.js';
import { plan } from '../../src/reconcile/planner.js';

// What an idle plan of 100,000 holds once per resource must not be made once per resource: the
// noops' reason, change list and dependency list are one each, shared and frozen. As JSON the
// plan is the same (the golden plans in plans.test.ts hold that).

const providers = createProviderRegistry();

function workspace(project: string, name: string): Manifest {
  return { apiVersion: 'paas.envmgmt.io/v1', kind: 'Workspace', metadata: { name, project } };
}

function liveOf(m: Manifest): LiveObject {
  const { apiVersion, kind, metadata } = structuredClone(m);
  const ref = { kind: m.kind, name: m.metadata.name, project: m.metadata.project! };
  return { key: manifestKey(m), ref, body: { apiVersion, kind, metadata } };
}

describe('an idle plan shares what every noop has alike', () => {
  const desired = Array.from({ length: 20 }, (_, i) => workspace(`p${i % 3}`, `ws-${i}`));
  const p = plan(desired, desired.map(liveOf), new Map(), { providers });

  it('gives every noop one reason, one empty change list and one empty dependency list', () => {
    expect(p.actions).toHaveLength(20);
    const [first, ...rest] = p.actions;
    for (const a of rest) {
      expect(a.type).toBe('noop');
      expect(a.reason).toBe(first!.reason);
      expect(a.changes).toBe(first!.changes);
      expect(a.dependsOn).toBe(first!.dependsOn);
    }
    expect(first!.reason).toEqual({ code: 'in-sync', message: 'in sync' });
    expect(Object.isFrozen(first!.reason)).toBe(true);
    expect(Object.isFrozen(first!.changes)).toBe(true);
    expect(Object.isFrozen(first!.dependsOn)).toBe(true);
  });

  it('keeps the noops as JSON as they were, each its own literal', () => {
    expect(JSON.parse(JSON.stringify(p.actions[0]))).toEqual({
      type: 'noop',
      key: 'Workspace/p0/ws-0',
      target: { kind: 'Workspace', name: 'ws-0', project: 'p0' },
      reason: { code: 'in-sync', message: 'in sync' },
      changes: [],
      id: 'Workspace/p0/ws-0#noop',
      dependsOn: [],
    });
  });
});

describe('creates and keys', () => {
  it('gives the changes of two creates the same path strings, as before by value', () => {
    const [a, b] = [workspace('p', 'a'), workspace('p', 'b')].map(creationChanges);
    expect(a!.map((c) => c.path)).toEqual(['/metadata']);
    expect(b![0]!.path).toBe(a![0]!.path);
  });

  it('spells keys as before, null and undefined parts as empty', () => {
    expect(identityKey({ kind: 'Workspace', project: 'p', name: 'w' })).toBe('Workspace/p/w');
    expect(identityKey({ kind: 'ComputeInstance', project: 'p', workspace: 'w', name: 'i' })).toBe(
      'ComputeInstance/p/w/i',
    );
    expect(identityKey({ kind: 'User', name: 'a@b' })).toBe('User/a@b');
    expect(identityKey({ kind: 'User', name: null as never, project: undefined })).toBe('User/');
    expect(identityKey({ kind: 'User', name: 42 as never })).toBe('User/42');
  });
});
