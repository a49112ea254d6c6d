import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderPlanText } from '../../src/reconcile/render/index.js';
import { converge, type World, world } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

/** Rewrites the ML research manifests (the GPU Kubernetes cluster k8s-train lives there). */
function edit(change: (text: string) => string): void {
  const file = join(w.manifests, '20-ml-research.yaml');
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

// issue 22, item 6: a Kubernetes GPU instance holds (H100 + L40 worker nodes) × 8 GPUs
describe('GPU estimates of Kubernetes GPU instances', () => {
  it('count worker nodes: creating k8s-train (2 H100 nodes) is 16 GPUs', async () => {
    const planned = await w.run({ mode: 'plan' });
    expect(planned.plan!.gpu!.changes.find((c) => c.profile === 'gpu-k8s')).toEqual({
      profile: 'gpu-k8s',
      instances: 1,
      created: 1,
      gpuHoursPerDay: 2 * 8 * 24,
      gpuHoursPerMonth: 2 * 8 * 730,
    });
  });

  it('show scaling H100 worker nodes from 2 to 4 as 16 more GPUs', async () => {
    await converge(w);
    edit((t) => t.replace(/(name: H100 Worker Nodes\n\s+value: )"2"/, '$1"4"'));
    const planned = await w.run({ mode: 'plan' });
    expect(planned.plan!.actions.some((a) => a.type === 'update')).toBe(true);
    expect(planned.plan!.gpu?.changes).toEqual([
      {
        profile: 'gpu-k8s',
        instances: 0,
        resized: 1,
        gpuHoursPerDay: 2 * 8 * 24,
        gpuHoursPerMonth: 2 * 8 * 730,
      },
    ]);
    expect(renderPlanText(planned.plan!)).toContain(
      'Compute:\n  gpu-k8s: 1 resized ≈ +384 GPU-h/day (+11,680/month)',
    );
  }, 120_000);

  it('show a rename with --prune as the clusters it destroys and re-provisions', async () => {
    await converge(w);
    edit((t) => t.replace('name: k8s-train\n', 'name: k8s-train-2\n'));
    const planned = await w.run({ mode: 'plan', prune: true });
    const ids = planned.plan!.actions.filter((a) => a.type !== 'noop').map((a) => a.id);
    expect(ids).toContain('ComputeInstance/ml-research/training/k8s-train#delete');
    expect(ids).toContain('ComputeInstance/ml-research/training/k8s-train-2#create');
    expect(planned.plan!.gpu?.changes).toEqual([
      {
        profile: 'gpu-k8s',
        instances: 0,
        created: 1,
        deleted: 1,
        gpuHoursPerDay: 0,
        gpuHoursPerMonth: 0,
      },
    ]);
    expect(renderPlanText(planned.plan!)).toContain(
      'Compute:\n  gpu-k8s: +1 created, −1 deleted ≈ ±0 GPU-h/day (±0/month)',
    );
  }, 120_000);
});
