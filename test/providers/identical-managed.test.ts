import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';
import { upsertInSync } from '../../src/providers/support/actions.js';
import { type Doc, managedBody } from '../../src/providers/support/diff.js';
import { identicalManaged } from '../../src/providers/support/identical.js';
import { workspaceProvider } from '../../src/providers/workspace.js';
import { holeThenOne } from '../helpers/holes.js';

// identicalManaged reads a manifest's managed body in place: it replaces upsertInSync's copy of
// the body (managedBody, a field deleted, both bodies' envelopes spread off). It may answer false
// where the copy would have answered true (a value the copy changes), never true where it would
// have answered false; on JSON data the two are the same.

/** Few values, so that a manifest and a live body are often equal. */
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('a', 'b', 0, 1, true, null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 2 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', '__proto__'), tie('value'), { maxKeys: 2 }),
})).value;
/** Values JSON would change or drop (the copy's business), and a value deeper than the limit. */
const odd = fc.constantFrom<unknown>(
  undefined,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -0,
  new Date(0),
  () => 1,
  holeThenOne(),
  Object.create(null),
  Array.from({ length: 70 }).reduce((v) => ({ a: v }), 'deep'),
);

/**
 * Top-level and metadata fields, envelope and platctl-only ones included; metadata an object, as
 * every manifest's is, unless `anyMetadata` (then false is allowed where the copy says true).
 */
const doc = (leaf: fc.Arbitrary<unknown>, anyMetadata: boolean) =>
  fc
    .record(
      {
        apiVersion: fc.constantFrom('v1', 'v2'),
        kind: fc.constantFrom('Workspace', 'Other'),
        status: leaf,
        metadata: fc.oneof(
          fc.dictionary(
            fc.constantFrom('name', 'project', 'labels', 'dependsOn', 'annotations'),
            leaf,
            { maxKeys: 4 },
          ),
          anyMetadata ? leaf : fc.constant({}),
        ),
        spec: leaf,
        other: leaf,
      },
      { requiredKeys: [] },
    )
    .map((d) => d as Doc);

/**
 * A live body: the manifest's fields (less platctl's, less `spec`, plus one) or a document of its
 * own.
 */
const pair = (leaf: fc.Arbitrary<unknown>, anyMetadata = false) =>
  fc
    .tuple(doc(leaf, anyMetadata), doc(leaf, anyMetadata), fc.nat(4))
    .map(([desired, other, how]): [Doc, Doc] => {
      if (how === 0) return [desired, other];
      const live = JSON.parse(JSON.stringify(desired ?? null) ?? 'null') as Doc;
      if (live && typeof live.metadata === 'object' && live.metadata !== null && how < 3) {
        const m = live.metadata as Doc;
        delete m.dependsOn;
        delete m.annotations;
      }
      if (live && how === 2) delete live.spec;
      // a field the platform added
      if (live && how === 4) live.extra = 'a';
      return [desired, live ?? {}];
    });

/** The answer identicalManaged replaces: upsertInSync with managedBody less `dropped`. */
function copied(desired: Doc, live: Doc, dropped: readonly string[]): boolean {
  const input = { desired: desired as unknown as Manifest, live: { body: live } as LiveObject };
  return upsertInSync(input, (m) => {
    const b = managedBody(m);
    for (const k of dropped) delete b[k];
    return b;
  });
}

describe('identicalManaged', () => {
  for (const dropped of [[], ['spec']] as const) {
    it(`is the copy's answer on JSON data (dropping ${JSON.stringify(dropped)})`, () => {
      fc.assert(
        fc.property(pair(json), ([desired, live]) => {
          expect(identicalManaged(desired, live, new Set(dropped))).toBe(
            copied(desired, live, dropped),
          );
        }),
        { numRuns: 5000 },
      );
    });

    it(`is true only where the copy says true, odd values included (dropping ${JSON.stringify(dropped)})`, () => {
      fc.assert(
        fc.property(pair(fc.oneof(json, odd), true), ([desired, live]) => {
          if (identicalManaged(desired, live, new Set(dropped))) {
            expect(copied(desired, live, dropped)).toBe(true);
          }
        }),
        { numRuns: 5000 },
      );
    });
  }

  it("is the workspaces' inSync", () => {
    const desired = {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'w', project: 'p', annotations: { a: 'b' }, dependsOn: [] },
      spec: { ignored: true },
    };
    const body = { apiVersion: 'x', kind: 'Workspace', metadata: { name: 'w', project: 'p' } };
    const inSync = (b: Doc) =>
      workspaceProvider.inSync?.({ key: 'k', desired, live: { body: b } } as never);
    expect(inSync(body)).toBe(true);
    expect(inSync({ ...body, metadata: { name: 'w', project: 'q' } })).toBe(false);
    expect(inSync({ ...body, metadata: { name: 'w', project: 'p', description: '' } })).toBe(false);
  });
});
