import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bareMetalBody,
  createWorkspace,
  P,
  type PaasHarness,
  startPaas,
  vpcBody,
} from './fixtures-paas/harness.js';

/** A valid body with one leaf (or subtree) replaced by arbitrary JSON. */
function mutated(base: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const node = (base ?? {}) as Record<string, unknown>;
  return { ...node, [head]: mutated(node[head], rest, value) };
}

describe('PaaS writes under arbitrary bodies', () => {
  let h: PaasHarness;
  beforeAll(async () => {
    h = await startPaas();
    await createWorkspace(h);
  });
  afterAll(async () => h.close());

  const paths = fc.constantFrom(
    [],
    ['metadata'],
    ['metadata', 'name'],
    ['spec'],
    ['spec', 'computeType'],
    ['spec', 'computeProfile'],
    ['spec', 'variables'],
  );

  it('answers 201, 200 or 400 (never 500) to compute creates, and stores only what it accepts', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(paths, fc.jsonValue({ maxDepth: 3 }), async (path, value) => {
        const r = await h.call(
          'POST',
          `${P}/platform/workspaces/ws/computeinstances`,
          mutated(bareMetalBody(`fz-${accepted}`), path, value),
        );
        expect([200, 201, 400]).toContain(r.status); // 200: a random name hit an earlier one
        if (r.status === 400) expect(r.body.details?.length ?? 0).toBeGreaterThan(0);
        if (r.status === 201) accepted++;
      }),
      { numRuns: 60 },
    );
    const list = await h.call(
      'GET',
      `${P}/platform/computeinstances?computeType=baremetal&limit=1000`,
    );
    const k8s = await h.call('GET', `${P}/platform/computeinstances?computeType=k8s&limit=1000`);
    expect(list.body.metadata.count + k8s.body.metadata.count).toBe(accepted);
  });

  it('answers 201, 400 or 409 (never 500) to service creates', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          [],
          ['spec'],
          ['spec', 'variables'],
          ['spec', 'serviceProfile'],
          ['metadata'],
        ),
        fc.jsonValue({ maxDepth: 3 }),
        async (path, value) => {
          const r = await h.call(
            'POST',
            `${P}/platform/services`,
            mutated(vpcBody('fz'), path, value),
          );
          expect([201, 400, 409]).toContain(r.status);
        },
      ),
      { numRuns: 40 },
    );
  });
});
