import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { converge, type World, world } from './harness.js';

/**
 * What a policy sees of money and billing (issue 25): `plan.cost` from the price file, and
 * `plan.usage`, this month's billed usage per project read from the platform's billing.
 */
let w: World;
beforeAll(async () => {
  w = await world();
  // billed while powered on: k8s-train's weekday schedule would turn it off at weekends
  rmSync(join(w.manifests, '50-power-schedules.yaml'));
  const runs = await converge(w, { prune: false });
  expect(runs.at(-1)?.status).toBe('in-sync');
  w.emulator.clock.advance(6 * 3600); // six hours of the examples' instances, billed
}, 120_000);
afterAll(async () => {
  await w?.close();
});

const policy = (expression: string, message: string) => `apiVersion: platctl.io/v1alpha1
kind: Policy
metadata:
  name: budget
spec:
  rules:
    - name: budget
      match: { kinds: [Workspace], projects: [ml-research] }
      expression: ${JSON.stringify(expression)}
      effect: warn
      message: ${JSON.stringify(message)}
`;

describe('plan.cost and plan.usage in policies', { timeout: 120_000 }, () => {
  it('plan.usage holds this month’s billed hours per project', async () => {
    writeFileSync(
      join(w.manifests, 'budget.yaml'),
      policy(
        "plan.usage['ml-research'].hours < 1.0",
        "ml-research has {{ plan.usage['ml-research'].hours }} billed hours this month",
      ),
    );
    const r = await w.run({ mode: 'plan' });
    const hours = r.plan?.policies?.map((p) => p.message) ?? [];
    expect(hours.length).toBeGreaterThan(0);
    const billed = Number(/has ([\d.]+) billed hours/.exec(hours[0] ?? '')?.[1]);
    expect(billed).toBeGreaterThanOrEqual(6);
  });

  it('plan.cost is what the plan adds, in the price file’s currency', async () => {
    writeFileSync(
      join(w.manifests, 'budget.yaml'),
      policy(
        '!has(plan.cost) || plan.cost.perMonth <= 0.0',
        '{{ plan.cost.currency }} {{ plan.cost.perMonth }} a month',
      ),
    );
    writeFileSync(
      join(w.manifests, 'more.yaml'),
      `apiVersion: paas.envmgmt.io/v1
kind: ComputeInstance
metadata:
  name: extra-l40s
  project: ml-research
  workspace: experiments
spec:
  computeType: baremetal
  computeProfile:
    name: bmaas-l40s
    systemCatalog: true
  variables:
    - name: node_os_image
      valueType: text
      value: ubuntu-22.04
    - name: Contract Term
      valueType: text
      value: "1"
`,
    );
    const prices = { currency: 'EUR', profiles: { 'bmaas-l40s': { hourly: 10, gpus: 4 } } };
    const r = await w.run({ mode: 'plan', prices });
    expect(r.plan?.policies?.map((p) => p.message)).toContain('EUR 7300 a month');
  });
});
