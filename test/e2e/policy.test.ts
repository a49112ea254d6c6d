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

const WORKLOAD = `apiVersion: paas.envmgmt.io/v1
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
---
apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: ws
  project: default
`;

const policy = (effect: string) => `apiVersion: platctl.io/v1alpha1
kind: Policy
metadata:
  name: guardrails
spec:
  rules:
    - name: workspaces-labelled
      match: { kinds: [Workspace], files: ['**/workload.yaml'] }
      expression: has(object.metadata.labels) && 'team' in object.metadata.labels
      effect: ${effect}
      message: "workspace {{ object.metadata.name }} ({{ action }}, {{ plan.byKind.Workspace.create }} created) has no team label"
`;

const dirOf = (effect: string) =>
  manifestDir(w, effect, { 'workload.yaml': WORKLOAD, 'policy.yaml': policy(effect) });

describe('kind: Policy, checked at plan', () => {
  it('deny: a plan error at the manifest, and apply sends nothing', async () => {
    const paths = [dirOf('deny')];
    const planned = await w.run({ mode: 'plan', paths });
    expect(planned.status).toBe('blocked');
    const errors = planned.plan!.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([
      {
        severity: 'error',
        key: 'Workspace/default/ws',
        message:
          'policy Policy/guardrails rule workspaces-labelled (deny): workspace ws (create, 1 created) has no team label',
        file: join(paths[0]!, 'workload.yaml'),
        line: 15,
        col: 1,
      },
    ]);
    expect(renderPlanText(planned.plan!)).toMatch(/Policies:\n.*deny.*workspaces-labelled/);
    expect(renderPlanMarkdown(planned.plan!)).toContain('**Policies**');
    expect(JSON.parse(renderPlanJson(planned.plan!)).policies).toHaveLength(1);

    const before = await w.last();
    const applied = await w.run({ mode: 'apply', paths });
    expect(applied.status).toBe('blocked');
    expect(writes(await w.journal(before))).toEqual([]);
  }, 60_000);

  it('warn: a warning in the plan, and apply goes ahead', async () => {
    const paths = [dirOf('warn')];
    const planned = await w.run({ mode: 'plan', paths });
    expect(planned.status).toBe('planned');
    expect(planned.plan!.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'warning', key: 'Workspace/default/ws' }),
    );
    expect(renderPlanText(planned.plan!)).toContain('warn');
    const applied = await w.run({ mode: 'apply', paths });
    expect(applied.status).toBe('applied');
  }, 60_000);

  it('require-approval: apply holds with nothing sent until the rule is approved', async () => {
    const paths = [dirOf('require-approval')];
    const planned = await w.run({ mode: 'plan', paths });
    expect(planned.status).toBe('planned');
    const before = await w.last();
    const held = await w.run({ mode: 'apply', paths });
    expect(held.status).toBe('blocked');
    expect(held.plan!.diagnostics.find((d) => d.severity === 'error')?.message).toContain(
      '--approve-policy workspaces-labelled',
    );
    expect(writes(await w.journal(before))).toEqual([]);

    const approved = await w.run({
      mode: 'apply',
      paths,
      approvedPolicies: ['workspaces-labelled'],
    });
    expect(approved.status).toBe('applied');
    expect(approved.plan!.policies).toEqual([
      expect.objectContaining({ rule: 'workspaces-labelled', outcome: 'approved' }),
    ]);
  }, 60_000);

  it('a passing rule leaves no Policies section', async () => {
    const paths = [
      manifestDir(w, 'pass', {
        'workload.yaml': WORKLOAD,
        'policy.yaml': policy('deny').replace(/expression: .*/, 'expression: "true"'),
      }),
    ];
    const planned = await w.run({ mode: 'plan', paths });
    expect(planned.status).toBe('planned');
    expect(planned.plan!.policies).toBeUndefined();
    expect(renderPlanText(planned.plan!)).not.toContain('Policies');
  }, 60_000);
});
