import { describe, expect, it } from 'vitest';
import { renderPlanMarkdown } from '../../src/reconcile/render/markdown.js';
import { renderPlanText } from '../../src/reconcile/render/text.js';
import { act, planOf } from './helpers.js';

const spec = {
  type: 'Gke',
  cloudCredentials: 'gcp-credentials',
  config: {
    location: { type: 'zonal', zone: 'us-central1-a' },
    nodePools: [
      {
        name: 'default-pool',
        size: 3,
        machineConfig: { machineType: 'e2-standard-8', bootDiskSize: 100 },
      },
      { name: 'gpu-pool', size: 1, machineConfig: { machineType: 'a2-highgpu-1g' } },
    ],
    clientSecret: 'do-not-show-me',
  },
  addons: ['gpu-operator', 'dcgm-exporter'],
};
const create = act('Cluster/platform/gke-ml#create', [], 'create', {
  reason: { code: 'absent', message: 'cluster platform/gke-ml does not exist on the platform' },
  changes: [
    { op: 'add', path: '/metadata', after: { name: 'gke-ml', project: 'platform' } },
    { op: 'add', path: '/spec', after: spec },
  ],
});

describe('a created object in the plan', () => {
  it('shows every field on its own line, nested, in text', () => {
    const text = renderPlanText(planOf([create]));
    const lines = text.split('\n');
    const at = (s: string) => lines.findIndex((l) => l.trimEnd() === s);
    // nesting is indentation; nothing is cut
    expect(at('        + /spec:')).toBeGreaterThan(0);
    expect(at('            + type: "Gke"')).toBeGreaterThan(0);
    expect(at('                + nodePools:')).toBeGreaterThan(0);
    expect(at('                    + [1]:')).toBeGreaterThan(0);
    expect(at('                            + machineType: "a2-highgpu-1g"')).toBeGreaterThan(
      at('                    + [1]:'),
    );
    expect(at('                + [0]: "gpu-operator"')).toBeGreaterThan(0);
    expect(text).not.toContain('...');
    expect(text).not.toContain('do-not-show-me');
    expect(at('                + clientSecret: (sensitive)')).toBeGreaterThan(0);
  });

  it('shows the same tree in a markdown diff block, a + on every line', () => {
    const md = renderPlanMarkdown(planOf([create]));
    const block = md.slice(md.indexOf('```diff'), md.lastIndexOf('```'));
    const lines = block.split('\n').slice(1, -1);
    expect(lines.length).toBeGreaterThan(20);
    for (const l of lines) expect(l).toMatch(/^ {2}\+ /);
    // /spec > config > nodePools > [0] > machineConfig > machineType: five levels in
    expect(lines).toContain(`  + ${' '.repeat(20)}machineType: "e2-standard-8"`);
    expect(md).not.toContain('do-not-show-me');
  });

  it('keeps a markdown plan of many large creates under the size cap, with a note', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      act(`Cluster/p/c${i}#create`, [], 'create', {
        changes: [{ op: 'add', path: '/spec', after: spec }],
      }),
    );
    const md = renderPlanMarkdown(planOf(many));
    expect(md.length).toBeLessThanOrEqual(65_000);
    expect(md).toMatch(/Output cut: \d+ more resource\(s\) not shown/);
  });
});
