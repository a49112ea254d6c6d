import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import type { Action } from '../../src/model/action.js';
import type { Plan } from '../../src/model/plan.js';
import { parsePrices } from '../../src/model/prices.js';
import { gpuKept, gpuLines, gpuSummary } from '../../src/reconcile/gpu.js';
import { EXAMPLES } from '../e2e/harness.js';
import { runCli } from '../helpers/cli.js';

const instance = (name: string, profile: string): Action => ({
  id: `ComputeInstance/p/w/${name}#create`,
  key: `ComputeInstance/p/w/${name}`,
  type: 'create',
  target: { kind: 'ComputeInstance', name, project: 'p', workspace: 'w' },
  desired: {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'ComputeInstance',
    metadata: { name, project: 'p', workspace: 'w' },
    spec: { computeType: 'baremetal', computeProfile: { name: profile }, variables: [] },
  },
  reason: { code: 'absent', message: 'new' },
  changes: [],
  dependsOn: [],
});
const removed = (name: string, profile: string): Action => ({
  id: `ComputeInstance/p/w/${name}#delete`,
  key: `ComputeInstance/p/w/${name}`,
  type: 'delete',
  target: { kind: 'ComputeInstance', name, project: 'p', workspace: 'w' },
  reason: { code: 'removed-from-git', message: 'gone' },
  changes: [{ op: 'remove', path: '/spec', before: { computeProfile: { name: profile } } }],
  dependsOn: [],
});
const plan = (actions: Action[]): Plan => ({ formatVersion: 1, actions, diagnostics: [] });

describe('GPU-hours of a plan', () => {
  it('adds the compute a plan creates and subtracts what it deletes, per profile', () => {
    const p = plan([
      instance('a', 'bmaas-h100'),
      instance('b', 'bmaas-h100'),
      instance('c', 'bmaas-h100'),
      removed('d', 'bmaas-l40s'),
      removed('e', 'mystery'),
    ]);
    const summary = gpuSummary(p)!;
    expect(gpuLines(summary)).toEqual([
      '+3 × bmaas-h100 ≈ +576 GPU-h/day (+17,520/month)',
      '−1 × bmaas-l40s ≈ −192 GPU-h/day (−5,840/month)',
      '−1 × mystery (GPUs of this profile unknown: add it to the price file)',
    ]);
    const prices = parsePrices(
      {
        currency: 'USD',
        profiles: { 'bmaas-h100': { hourly: 10, gpus: 1 }, mystery: { gpus: 2 } },
      },
      'p.yaml',
    );
    expect(gpuLines(gpuSummary(p, prices)!)).toEqual([
      '+3 × bmaas-h100 ≈ +72 GPU-h/day (+2,190/month), +720 USD/day (+21,900/month)',
      '−1 × bmaas-l40s ≈ −192 GPU-h/day (−5,840/month)',
      '−1 × mystery ≈ −48 GPU-h/day (−1,460/month)',
    ]);
  });

  it('is absent when no compute is created, deleted or resized', () => {
    expect(gpuSummary(plan([]))).toBeUndefined();
  });

  it('shows a create and a delete of one profile (a rename) even when they cancel out', () => {
    const summary = gpuSummary(plan([instance('a', 'bmaas-h100'), removed('b', 'bmaas-h100')]))!;
    expect(summary.changes).toEqual([
      {
        profile: 'bmaas-h100',
        instances: 0,
        created: 1,
        deleted: 1,
        gpuHoursPerDay: 0,
        gpuHoursPerMonth: 0,
      },
    ]);
    expect(gpuLines(summary)).toEqual([
      'bmaas-h100: +1 created, −1 deleted ≈ ±0 GPU-h/day (±0/month)',
    ]);
  });

  it('counts a Kubernetes instance as its worker nodes × GPUs per node, and prices nodes', () => {
    const k8s = (name: string, h100: string, l40?: string): Action => {
      const a = instance(name, 'gpu-k8s') as Extract<Action, { type: 'create' }>;
      const variables = [
        { name: 'H100 Worker Nodes', value: h100 },
        ...(l40 === undefined ? [] : [{ name: 'L40 Worker Nodes', value: l40 }]),
      ];
      const spec = { computeType: 'k8s', computeProfile: { name: 'gpu-k8s' }, variables };
      return { ...a, desired: { ...a.desired, spec } } as Action;
    };
    const prices = parsePrices({ profiles: { 'gpu-k8s': { hourly: 10 } } }, 'p.yaml');
    expect(gpuSummary(plan([k8s('a', '2', '1')]), prices)!.changes).toEqual([
      {
        profile: 'gpu-k8s',
        instances: 1,
        created: 1,
        gpuHoursPerDay: 3 * 8 * 24,
        gpuHoursPerMonth: 3 * 8 * 730,
        costPerDay: 3 * 10 * 24,
        costPerMonth: 3 * 10 * 730,
      },
    ]);
    // an update from 2 to 4 H100 nodes: the change is what is added
    const resize = {
      ...k8s('a', '4'),
      id: 'ComputeInstance/p/w/a#update',
      type: 'update',
      changes: [
        { op: 'replace', path: '/spec/variables/H100 Worker Nodes/value', before: '2', after: '4' },
      ],
    } as Action;
    expect(gpuLines(gpuSummary(plan([resize]))!)).toEqual([
      'gpu-k8s: 1 resized ≈ +384 GPU-h/day (+11,680/month)',
    ]);
    // an update that leaves the nodes as they are changes no GPU
    const same = { ...resize, changes: [] } as Action;
    expect(gpuSummary(plan([same]))).toBeUndefined();
  });
});

describe('what compute left on the platform keeps costing', () => {
  it('counts live specs as kept, priced when the price file knows the profile, unsigned', () => {
    const bm = { computeType: 'baremetal', computeProfile: { name: 'bmaas-h100' }, variables: [] };
    const k8s = {
      computeType: 'k8s',
      computeProfile: { name: 'gpu-k8s' },
      variables: [{ name: 'L40 Worker Nodes', value: '3' }],
    };
    const prices = parsePrices({ profiles: { 'bmaas-h100': { hourly: 98.5 } } }, 'p.yaml');
    const kept = gpuKept([bm, bm, k8s, { no: 'profile' }], prices)!;
    expect(kept.currency).toBe('USD');
    expect(gpuLines(kept, true)).toEqual([
      '2 × bmaas-h100 ≈ 384 GPU-h/day (11,680/month), 4,728 USD/day (143,810/month)',
      '1 × gpu-k8s ≈ 576 GPU-h/day (17,520/month)',
    ]);
    expect(gpuKept([{ no: 'profile' }])).toBeUndefined();
  });
});

describe('platctl plan shows GPU-hours and cost', { timeout: 120_000 }, () => {
  let emulator: RunningEmulator;
  let dir: string;
  const apiKey = randomBytes(16).toString('hex');
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKey });
    dir = mkdtempSync(join(tmpdir(), 'platctl-gpu-'));
    writeFileSync(
      join(dir, 'prices.yaml'),
      'currency: USD\nprofiles:\n  bmaas-h100: { hourly: 98.5 }\n',
    );
  });
  afterAll(async () => {
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const plan = (output: string) =>
    runCli(
      [
        'plan',
        EXAMPLES,
        '-o',
        output,
        '--state',
        join(dir, 's.db'),
        '--prices',
        join(dir, 'prices.yaml'),
      ],
      {
        env: {
          PLATCTL_BASE_URL: emulator.url,
          PLATCTL_API_KEY: apiKey,
          PLATCTL_DEMO_PASSWORD: 'Example-Password-1',
        },
        timeoutMs: 90_000,
      },
    );

  it('in text, markdown and JSON', async () => {
    const h100 = '+1 × bmaas-h100 ≈ +192 GPU-h/day (+5,840/month), +2,364 USD/day (+71,905/month)';
    const text = await plan('text');
    expect(text.stdout).toContain(`Compute:\n  ${h100}\n  +1 × bmaas-l40s ≈ +192 GPU-h/day`);
    // k8s-train: 2 H100 worker nodes of 8 GPUs
    expect(text.stdout).toContain('+1 × gpu-k8s ≈ +384 GPU-h/day (+11,680/month)');
    const md = await plan('markdown');
    expect(md.stdout).toContain(`**Compute**\n\n- ${h100}\n`);
    const json = JSON.parse((await plan('json')).stdout) as { gpu: unknown };
    expect(json.gpu).toEqual({
      currency: 'USD',
      changes: [
        {
          profile: 'bmaas-h100',
          instances: 1,
          created: 1,
          gpuHoursPerDay: 192,
          gpuHoursPerMonth: 5840,
          costPerDay: 2364,
          costPerMonth: 71905,
        },
        {
          profile: 'bmaas-l40s',
          instances: 1,
          created: 1,
          gpuHoursPerDay: 192,
          gpuHoursPerMonth: 5840,
        },
        {
          profile: 'gpu-k8s',
          instances: 1,
          created: 1,
          gpuHoursPerDay: 384,
          gpuHoursPerMonth: 11680,
        },
      ],
    });
  });
});
