import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunPorts } from '../../src/reconcile/default-ports.js';
import { reconcile } from '../../src/reconcile/run.js';
import { ctlOutput } from './helpers/ctl.js';
import { commitFiles } from './helpers/git-remote.js';
import { instanceYaml, VPC_YAML, workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY, control, nextStep } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

/**
 * Found objects removed from the controller's repository (issue 22, item 2): six objects another
 * party made, three of them GPU instances, leave git. They are not this state's, so they are not
 * pruned; the status, `ctl status`, the control API and the dashboard must say they are left on
 * the platform and what they keep costing, instead of letting them vanish.
 */
const stack = useStack();

const SIX: Record<string, string> = {
  'platform/vpc.yaml': VPC_YAML,
  'platform/ws-a.yaml': workspaceYaml('ws-a', 'pool'),
  'platform/ws-b.yaml': workspaceYaml('ws-b', 'spare'),
  'platform/box-1.yaml': instanceYaml('ws-a', 'box-1'),
  'platform/box-2.yaml': instanceYaml('ws-a', 'box-2'),
  'platform/box-3.yaml': instanceYaml('ws-a', 'box-3'),
};
const BYSTANDER = { 'platform/keep.yaml': workspaceYaml('keep', 'stays') };
const SAID = 'removed from git but not created by this state: left on the platform';

/** Another state store applies the six objects first: for this controller they are found. */
async function madeByAnotherParty(): Promise<void> {
  const dir = join(stack.root, 'theirs');
  for (const [path, text] of Object.entries(SIX)) {
    mkdirSync(join(dir, 'platform'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const ports = createRunPorts({
    baseUrl: stack.emulator.url,
    apiKey: API_KEY,
    statePath: join(stack.root, 'theirs.db'),
    env: {},
    wait: { pollMs: 20, timeoutMs: 10_000 },
  });
  try {
    const r = await reconcile({ paths: [join(dir, 'platform')], mode: 'apply' }, ports);
    expect(r.status).toBe('applied');
  } finally {
    await ports.close();
  }
}

describe('found objects removed from git, in the controller', () => {
  it('stay in the status as left on the platform, with the GPU-hours they keep costing', async () => {
    await madeByAnotherParty();
    commitFiles(stack.remote, { ...SIX, ...BYSTANDER }, 'declare what is there');
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');

    const step = nextStep(c);
    commitFiles(
      stack.remote,
      Object.fromEntries(Object.keys(SIX).map((k) => [k, null])),
      'drop six',
    );
    c.loop.trigger('webhook');
    expect((await step).result).toBe('succeeded');

    const left = c.status.leftOnPlatform!;
    expect(left.keys).toHaveLength(6);
    expect(left.gpu?.changes).toEqual([
      {
        profile: 'bmaas-l40s',
        instances: 3,
        created: 3,
        gpuHoursPerDay: 3 * 8 * 24,
        gpuHoursPerMonth: 3 * 8 * 730,
      },
    ]);
    const orphaned = c.status.conditions.filter((r) => r.condition === 'Orphaned');
    expect(orphaned.map((r) => r.key).sort()).toEqual([...left.keys].sort());
    expect(orphaned[0]!.reason).toBe('RemovedFromGit');
    expect(orphaned[0]!.message).toContain(SAID);
    expect(orphaned[0]!.message).toContain(
      'platctl import --adopt --project platform --kind ComputeInstance --out <dir>',
    );
    expect(orphaned[0]!.message).toContain(`platctl state forget ${orphaned[0]!.key}`);

    const status = await ctlOutput(c, ['status']);
    expect(status).toContain(SAID);
    expect(status).toContain('3 × bmaas-l40s ≈ 576 GPU-h/day (17,520/month)');
    expect(status).toMatch(/1 Ready, .*6 Orphaned/);
    expect(status).toMatch(/ComputeInstance\/platform\/ws-a\/box-1\s+Orphaned\s+RemovedFromGit/);

    // the control API the dashboard reads
    const api = await control(c, 'GET', '/api/v1/status');
    expect(api.body.leftOnPlatform.keys).toHaveLength(6);
    expect(api.body.counts.Orphaned).toBe(6);
    const list = await control(c, 'GET', '/api/v1/resources?condition=Orphaned');
    expect(list.body.total).toBe(6);
    expect((await control(c, 'GET', '/status')).body.leftOnPlatform.message).toContain(SAID);
  }, 90_000);
});
