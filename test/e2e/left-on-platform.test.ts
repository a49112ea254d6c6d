import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
} from '../../src/reconcile/render/index.js';
import { manifestDir, type World, world, writes } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

const instance = (name: string) => `apiVersion: paas.envmgmt.io/v1
kind: ComputeInstance
metadata:
  name: ${name}
  project: ml-research
  workspace: gpu-pool
spec:
  computeType: baremetal
  computeProfile:
    name: bmaas-h100
    systemCatalog: true
  variables:
    - name: node_os_image
      valueType: text
      value: ubuntu-22.04
`;
/** Six objects: a VPC, a workspace, three H100 instances and a user. */
const FOUND = {
  'vpc.yaml': `apiVersion: paas.envmgmt.io/v1
kind: Service
metadata:
  name: vpc-pool
  project: ml-research
spec:
  serviceProfile:
    name: vpc
    systemCatalog: true
  serviceType: custom
  variables:
    - name: Default VPC Name
      value: pool-vpc
`,
  'ws.yaml': `apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: gpu-pool
  project: ml-research
`,
  'h100-a.yaml': instance('h100-a'),
  'h100-b.yaml': instance('h100-b'),
  'h100-c.yaml': instance('h100-c'),
  'user.yaml': `apiVersion: platctl.io/v1alpha1
kind: User
metadata:
  name: erin@acme.example
spec:
  first_name: Erin
  last_name: Moss
  user_type: CONSOLE
  passwordFrom:
    env: PLATCTL_DEMO_PASSWORD
`,
};
const BYSTANDER = `apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: bystander
  project: platform
`;

const SAID = 'removed from git but not created by this state: left on the platform';

describe('found objects removed from git (issue 22, item 2)', () => {
  it('are said to be left on the platform, with the GPU-hours they keep costing', async () => {
    // another party (another state store) makes the six objects
    const theirs = await w.run(
      { mode: 'apply', paths: [manifestDir(w, 'theirs', FOUND)] },
      { statePath: join(w.dir, 'theirs.db') },
    );
    expect(theirs.status).toBe('applied');
    // this state declares them too: found, not created
    const ours = await w.run({
      mode: 'apply',
      paths: [manifestDir(w, 'ours', { ...FOUND, 'bystander.yaml': BYSTANDER })],
    });
    expect(ours.plan!.found).toHaveLength(6);

    const before = await w.last();
    const removed = await w.run({
      mode: 'apply',
      paths: [manifestDir(w, 'ours', { 'bystander.yaml': BYSTANDER })],
      prune: true,
    });
    expect(removed.status).toBe('in-sync');
    expect(writes(await w.journal(before))).toEqual([]);
    const left = removed.plan!.leftOnPlatform!;
    expect(left.keys).toEqual([
      'ComputeInstance/ml-research/gpu-pool/h100-a',
      'ComputeInstance/ml-research/gpu-pool/h100-b',
      'ComputeInstance/ml-research/gpu-pool/h100-c',
      'Service/ml-research/vpc-pool',
      'User/erin@acme.example',
      'Workspace/ml-research/gpu-pool',
    ]);
    expect(left.message).toContain(SAID);
    expect(left.message).toContain('platctl import --adopt');
    expect(left.message).toContain('platctl state forget');
    expect(left.gpu?.changes).toEqual([
      {
        profile: 'bmaas-h100',
        instances: 3,
        created: 3,
        gpuHoursPerDay: 3 * 8 * 24,
        gpuHoursPerMonth: 3 * 8 * 730,
      },
    ]);
    const text = renderPlanText(removed.plan!);
    expect(text).toContain(`Left on the platform: 6 ${SAID.replace(': left on the platform', '')}`);
    expect(text).toContain('  3 × bmaas-h100 ≈ 576 GPU-h/day (17,520/month)');
    expect(renderPlanMarkdown(removed.plan!)).toContain('3 × bmaas-h100 ≈ 576 GPU-h/day');
    expect(JSON.parse(renderPlanJson(removed.plan!)).leftOnPlatform.keys).toHaveLength(6);
    // nothing was deleted, and the next plan still says so: they still cost
    const again = await w.run({
      mode: 'plan',
      paths: [manifestDir(w, 'ours', { 'bystander.yaml': BYSTANDER })],
    });
    expect(again.plan!.leftOnPlatform?.keys).toHaveLength(6);
  }, 120_000);
});
