import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceRef } from '../../src/model/action.js';
import { isKeyOf, isRefKey } from '../../src/model/key-of.js';
import { identityKey, KINDS, type Manifest, manifestKey } from '../../src/model/manifest.js';
import { nearKeys } from '../helpers/near-keys.js';

// The pairing takes a desired manifest's key from its revision when it is the manifest's key,
// checked part by part without making the key: the answer must be `key === manifestKey(m)`.
const part = fc.oneof(
  fc.constantFrom('', '/', 'a', 'a/b', 'p', 'w', 'ws-1', 'Workspace', 'ü', '😀'),
  fc.string({ maxLength: 6 }),
);
const manifest = fc
  .record({
    kind: fc.constantFrom(...KINDS),
    name: part,
    project: fc.option(part, { nil: undefined }),
    workspace: fc.option(part, { nil: undefined }),
  })
  .map(({ kind, name, project, workspace }) => {
    const metadata: Record<string, unknown> = { name };
    if (project !== undefined) metadata.project = project;
    if (workspace !== undefined) metadata.workspace = workspace;
    return { kind, metadata } as unknown as Manifest;
  });

describe('isKeyOf', () => {
  it('is key === manifestKey(m), for the key and keys near it', () => {
    fc.assert(
      fc.property(manifest, manifest, part, (x, y, extra) => {
        const key = manifestKey(x);
        const near = nearKeys(key, manifestKey(y), extra);
        for (const k of near) expect(isKeyOf(k, x)).toBe(k === key);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves parts that are not strings to the key’s join', () => {
    const odd = [
      { kind: 'Workspace', metadata: { name: 7, project: 'p' } },
      { kind: 'Workspace', metadata: { name: 'a', project: null } },
      { kind: 'ComputeInstance', metadata: { name: 'a', project: 'p', workspace: 3 } },
    ] as unknown as Manifest[];
    for (const x of odd) {
      expect(isKeyOf(manifestKey(x), x)).toBe(true);
      expect(isKeyOf(`${manifestKey(x)}x`, x)).toBe(false);
    }
  });

  // the observation takes an inventory entry's stored key for its ref the same way
  it('isRefKey is key === identityKey(ref), for the key and keys near it', () => {
    fc.assert(
      fc.property(manifest, manifest, part, (x, y, extra) => {
        const ref = { kind: x.kind, ...x.metadata } as ResourceRef;
        const key = identityKey(ref);
        const near = nearKeys(key, manifestKey(y), extra);
        for (const k of near) expect(isRefKey(k, ref)).toBe(k === key);
      }),
      { numRuns: 2000 },
    );
    const odd = { kind: 'Workspace', name: 7, project: null } as unknown as ResourceRef;
    expect(isRefKey(identityKey(odd), odd)).toBe(true);
    expect(isRefKey('Workspace/7', odd)).toBe(false);
  });
});
