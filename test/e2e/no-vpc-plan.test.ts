import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderPlanText } from '../../src/reconcile/render/index.js';
import { manifestDir, type World, world, writes } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

const WORKLOAD = `apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: ws
  project: default
---
apiVersion: paas.envmgmt.io/v1
kind: ComputeInstance
metadata:
  name: box
  project: default
  workspace: ws
spec:
  computeType: baremetal
  computeProfile:
    name: bmaas-l40s
    systemCatalog: true
  variables:
    - name: node_os_image
      valueType: text
      value: ubuntu-22.04
`;
const VPC = `apiVersion: paas.envmgmt.io/v1
kind: Service
metadata:
  name: vpc-default
  project: default
spec:
  serviceProfile:
    name: vpc
    systemCatalog: true
  serviceType: custom
  variables:
    - name: Default VPC Name
      value: default-vpc
`;

// issue 22, item 5: compute in a project with no VPC planned as a clean create; apply then
// failed with 409 and left an instance created but never deployed
describe('compute in a project with no VPC, on the platform or in git', () => {
  it('is a plan error at the instance line, and apply changes nothing', async () => {
    const paths = [manifestDir(w, 'no-vpc', { 'workload.yaml': WORKLOAD })];
    const planned = await w.run({ mode: 'plan', paths });
    expect(planned.status).toBe('blocked');
    const errors = planned.plan!.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([
      {
        severity: 'error',
        key: 'ComputeInstance/default/ws/box',
        message:
          'project default has no VPC Service deployed on the platform and none is declared: deploying this compute instance would fail (409); declare a VPC Service in project default',
        file: join(paths[0]!, 'workload.yaml'),
        line: 11,
        col: 12,
      },
    ]);
    expect(renderPlanText(planned.plan!)).toContain('workload.yaml:11:12: error:');

    const before = await w.last();
    const applied = await w.run({ mode: 'apply', paths });
    expect(applied.status).toBe('blocked');
    expect(writes(await w.journal(before))).toEqual([]);
  }, 60_000);

  it('plans cleanly once git declares a VPC, or the platform has one deployed', async () => {
    const declared = await w.run({
      mode: 'plan',
      paths: [manifestDir(w, 'declared', { 'workload.yaml': WORKLOAD, 'vpc.yaml': VPC })],
    });
    expect(declared.status).toBe('planned');
    // another party deploys a VPC in the project: the plan sees it live
    const theirs = await w.run(
      { mode: 'apply', paths: [manifestDir(w, 'theirs', { 'vpc.yaml': VPC })] },
      { statePath: join(w.dir, 'theirs.db') },
    );
    expect(theirs.status).toBe('applied');
    const live = await w.run({
      mode: 'plan',
      paths: [manifestDir(w, 'no-vpc', { 'workload.yaml': WORKLOAD })],
    });
    expect(live.status).toBe('planned');
    expect(live.plan!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  }, 60_000);
});
