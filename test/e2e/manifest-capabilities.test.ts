import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { converge, type World, world, writes } from './harness.js';

/**
 * Capabilities of the API that manifests express (issue 15), applied by the real engine over
 * real HTTP: a one-shot power reset performed once per new value, and an instance created but
 * not deployed.
 */
let w: World;
beforeEach(async () => {
  w = await world();
  // the examples' weekday schedule powers k8s-train off at weekends: these trials want it on
  rmSync(join(w.manifests, '50-power-schedules.yaml'));
});
afterEach(async () => {
  await w.close();
});

const FILE = '20-ml-research.yaml';
/** Adds annotation lines under the metadata of the instance named `name` in the examples' copy. */
function annotate(name: string, lines: string[]): void {
  const path = join(w.manifests, FILE);
  const text = readFileSync(path, 'utf8');
  const at = `  name: ${name}\n  project: ml-research\n  workspace: training\n`;
  expect(text).toContain(at);
  const body = lines.map((l) => `    ${l}\n`).join('');
  writeFileSync(path, text.replace(at, `${at}  annotations:\n${body}`));
}

describe('one-shot power reset', () => {
  it('is performed once per new value of platctl.io/power-reset, and never repeated', async () => {
    expect((await converge(w)).at(-1)?.status).toBe('in-sync');
    annotate('k8s-train', ['platctl.io/power-reset: "t1"']);
    let before = await w.last();
    const first = await w.run({ mode: 'apply' });
    expect(first.status).toBe('applied');
    const power = first.plan!.actions.filter((a) => a.type === 'power');
    expect(power).toMatchObject([{ powerAction: 'Power reset', reason: { code: 'requested' } }]);
    const resets = (since: number) =>
      w
        .journal(since)
        .then((e) => writes(e).filter((x) => x.path.endsWith('/k8s-train/action/Power%20reset')));
    expect(await resets(before)).toHaveLength(1);
    before = await w.last();
    const again = await w.run({ mode: 'apply' });
    expect(again.status).toBe('in-sync');
    expect(await resets(before)).toHaveLength(0);
  });
});

describe('created but not deployed', () => {
  it('creates the instance and never publishes it while platctl.io/deploy is "false"', async () => {
    annotate('k8s-train', ['platctl.io/deploy: "false"']);
    expect((await converge(w)).at(-1)?.status).toBe('in-sync');
    const sent = writes(await w.journal()).filter((e) => e.path.includes('/k8s-train'));
    expect(sent.some((e) => e.path.endsWith('/k8s-train/publish'))).toBe(false);
    const created = writes(await w.journal()).filter((e) =>
      e.path.endsWith('/workspaces/training/computeinstances'),
    );
    expect(created.map((e) => e.status)).toEqual([201]);
  });
});
