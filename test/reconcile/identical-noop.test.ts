import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';
import { createProviderRegistry } from '../../src/providers/index.js';
import { plan } from '../../src/reconcile/planner.js';

const providers = createProviderRegistry();
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
const text = fc.string({ maxLength: 12 });
const variables = fc.uniqueArray(
  fc.record({ name: fc.stringMatching(/^[A-Za-z][A-Za-z _]{0,12}$/), value: text }),
  {
    selector: (v) => v.name,
    maxLength: 4,
  },
);

const workspace = fc
  .record({ project: name, name, displayName: fc.option(text, { nil: undefined }) })
  .map(
    ({ project, name, displayName }): Manifest => ({
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name, project, ...(displayName === undefined ? {} : { displayName }) },
    }),
  );
const service = fc.record({ project: name, name, variables }).map(
  ({ project, name, variables }): Manifest => ({
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Service',
    metadata: { name, project },
    spec: {
      serviceProfile: { name: 'vpc', systemCatalog: true },
      serviceType: 'custom',
      variables,
    },
  }),
);
const assignment = fc.record({ project: name, name, user: name }).map(
  ({ project, name, user }): Manifest => ({
    apiVersion: 'platctl.io/v1alpha1',
    kind: 'ProjectAssignment',
    metadata: { name, project },
    spec: { user: `${user}@x.io`, roles: [{ id: 'role-project-admin', name: 'PROJECT_ADMIN' }] },
  }),
);

/** The platform's view of a manifest that was applied and has settled (variables reordered). */
function liveOf(m: Manifest): LiveObject[] {
  const { apiVersion, kind, metadata, ...rest } = structuredClone(m) as Manifest & {
    spec?: { variables?: unknown[] };
  };
  const { dependsOn: _d, annotations: _a, ...meta } = metadata;
  if (rest.spec?.variables) rest.spec.variables.reverse();
  const ref = { kind: m.kind, name: m.metadata.name, project: m.metadata.project! };
  switch (m.kind) {
    case 'Workspace':
      return [{ key: manifestKey(m), ref, body: { apiVersion, kind, metadata: meta } }];
    case 'Service':
      return [
        {
          key: manifestKey(m),
          ref,
          body: { apiVersion, kind, metadata: meta, ...rest },
          status: 'deployed',
        },
      ];
    default:
      return []; // kinds the API cannot read: only last-applied speaks for them
  }
}

describe('planner property', () => {
  it('plans only noops when desired and live are identical', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(workspace, service, assignment), { maxLength: 8 }), (ms) => {
        const unique = [...new Map(ms.map((m) => [manifestKey(m), m])).values()];
        const frozen = structuredClone(unique);
        const live = unique.flatMap(liveOf);
        const last = new Map(unique.map((m) => [manifestKey(m), m]));
        const p = plan(unique, live, last, { providers });
        expect(p.actions.filter((a) => a.type !== 'noop')).toEqual([]);
        expect(p.actions).toHaveLength(unique.length);
        expect(unique).toEqual(frozen); // inputs never mutated
      }),
      { numRuns: 200 },
    );
  });
});
