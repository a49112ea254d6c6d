import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, INFRA, startHarness } from './harness.js';

const TARGETS: [string, string][] = [
  ['POST', '/auth/v1/users/'],
  ['POST', '/auth/v1/users/usr-admin/addtogroups/'],
  ['POST', '/auth/v1/users/usr-admin/assigntoproject/'],
  ['POST', '/auth/v1/users/usr-admin/unassignfromproject/'],
  ['POST', `${INFRA}/platform/clusters`],
  ['POST', `${INFRA}/platform/clusters/gke-x/updatecontrollerdeployment`],
  ['POST', '/v2/scheduler/project/prj-platform/cluster/gke-x/publish/blueprint'],
];

describe('arbitrary bodies and queries never break the emulator', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('answers every arbitrary JSON body with a 4xx error body or a success, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TARGETS),
        fc.jsonValue({ maxDepth: 3 }),
        async ([method, path], body) => {
          const r = await h.call(method, path, body, { header: 'X-API-KEY' });
          expect(r.status).toBeLessThan(500);
          if (r.status >= 400)
            expect(r.body).toMatchObject({ status: r.status, code: expect.any(String) });
        },
      ),
      { numRuns: 120 },
    );
  });

  it('answers arbitrary query strings on lists with 200 or a 400 naming the field', async () => {
    const lists = ['/auth/v1/projects/', '/auth/v1/users/', `${INFRA}/platform/clusters`];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...lists),
        fc.constantFrom('limit', 'offset', 'order', 'orderBy', 'orderby', 'q', 'other'),
        fc.string({ maxLength: 12 }),
        async (path, name, value) => {
          const r = await h.call('GET', `${path}?${name}=${encodeURIComponent(value)}`, undefined, {
            header: 'X-API-KEY',
          });
          expect([200, 400]).toContain(r.status);
          if (r.status === 400) expect(r.body.details[0].field).toBe(name);
        },
      ),
      { numRuns: 120 },
    );
  });
});
