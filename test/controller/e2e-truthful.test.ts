import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commitFiles } from './helpers/git-remote.js';
import { instanceYaml, VPC_YAML, workspaceYaml } from './helpers/platform-yaml.js';
import { get, nextStep } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

/**
 * The controller's status tells the truth (issue 9, defects 6, 7 and 8), end to end against the
 * emulator and a bare git repository.
 */
const stack = useStack();

const CLUSTER = readFileSync(
  new URL('../../examples/manifests/30-gke.yaml', import.meta.url),
  'utf8',
)
  .split(/^---$/m)
  .filter((doc) => /kind: (Cluster|ClusterControllers)\n/.test(doc))
  .join('---\n');

describe('status that tells the truth', () => {
  it('fails a revision whose --path is missing or empty, and never records it as applied', async () => {
    const sha = commitFiles(stack.remote, { 'elsewhere/ws.yaml': workspaceYaml('w', 'x') }, 'x');
    const c = await stack.controller();
    const o = await nextStep(c);
    expect(o.result).toBe('invalid');
    expect(c.status.lastAppliedRevision).toBeUndefined();
    expect(c.status.rejectedRevisions).toEqual([sha]);
    expect(c.status.lastDiagnostics.map((d) => d.code)).toContain('no-manifests');
    expect(c.status.lastDiagnostics.at(-1)?.message).toMatch(/platform\//);
  });

  it('reports postponed controller versions as progressing and requeues soon', async () => {
    commitFiles(stack.remote, { 'platform/gke.yaml': CLUSTER }, 'cluster and its controllers');
    const c = await stack.controller({ progressingRequeueMs: 200 });
    const first = await nextStep(c);
    expect(first.result).toBe('progressing');
    expect(first.requeueAfterMs).toBe(200);
    expect(c.status.lastAppliedRevision).toBeUndefined();
    expect(c.status.conditions.find((x) => x.kind === 'ClusterControllers')).toMatchObject({
      condition: 'Progressing',
      reason: 'Postponed',
    });
    // no trigger: the short requeue alone finishes the work
    const second = await nextStep(c, () => true, 10_000);
    expect(second.result).toBe('succeeded');
    expect(c.status.lastAppliedRevision).toBeDefined();
  });

  it('counts resources, not actions, and counts nextRunInMs down', async () => {
    commitFiles(
      stack.remote,
      {
        'platform/vpc.yaml': VPC_YAML,
        'platform/ws.yaml': workspaceYaml('ws-a', 'a'),
        'platform/box.yaml': instanceYaml('ws-a', 'box'),
      },
      'instance',
    );
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    const metrics = (await get(c, '/metrics')).text;
    // the instance took a create and a publish: still one resource
    expect(metrics).toMatch(/platctl_resources\{kind="ComputeInstance",condition="Ready"\} 1\n/);
    expect(metrics).toMatch(/platctl_resources\{kind="Service",condition="Ready"\} 1\n/);
    const first = JSON.parse((await get(c, '/status')).text).nextRunInMs as number;
    await new Promise((r) => setTimeout(r, 60));
    const second = JSON.parse((await get(c, '/status')).text).nextRunInMs as number;
    expect(first).toBeLessThanOrEqual(60_000);
    expect(second).toBeLessThan(first);
  });
});
