import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAndValidate, validateManifests } from '../../src/manifests/index.js';

/**
 * `platctl validate` streams (`validateManifests`: each file let go of once checked, the checks
 * across documents reading skeletons and finding positions in the files again): it must give
 * exactly the diagnostics of `loadAndValidate`, every field and the order, on every golden
 * fixture, the examples, and problems that span files.
 */
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const examples = fileURLToPath(new URL('../../examples/manifests/', import.meta.url));

async function same(paths: string[], env: Record<string, string> = {}) {
  const whole = await loadAndValidate({ paths, env });
  const streamed = await validateManifests({ paths, env });
  expect(streamed.diagnostics).toEqual(whole.diagnostics);
  expect(streamed.valid).toBe(whole.manifests.length);
  return streamed;
}

describe('validate, streamed, against the whole load', () => {
  const cases = readdirSync(fixtures, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const name of cases) {
    it(`golden fixture ${name}`, async () => {
      const dir = join(fixtures, name);
      const envFile = join(dir, 'env.json');
      const env = existsSync(envFile)
        ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>)
        : {};
      const r = await same([dir], env);
      expect(r.diagnostics.length).toBeGreaterThan(0);
    });
  }

  it('the examples (valid: a count, no diagnostics)', async () => {
    const r = await same([examples]);
    expect(r.valid).toBeGreaterThan(0);
  });

  describe('problems across files', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'platctl-stream-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const ws = (name: string, extra = '') =>
      `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ${name}\n  project: p\n${extra}`;
    const dep = (name: string) => `  dependsOn:\n    - {kind: Workspace, name: ${name}}\n`;

    it('duplicates, cycles, dangling references and a bad document in other files', async () => {
      mkdirSync(join(dir, 'a'));
      mkdirSync(join(dir, 'b'));
      writeFileSync(join(dir, 'a', '1.yaml'), [ws('one', dep('two')), ws('dup')].join('---\n'));
      writeFileSync(join(dir, 'a', '2.yaml'), `# padding\n\n${ws('two', dep('one'))}`);
      writeFileSync(join(dir, 'b', '3.yaml'), [ws('dup'), ws('x', dep('nowhere'))].join('---\n'));
      writeFileSync(join(dir, 'b', '4.yaml'), 'kind: Workspace\nmetadata: {name: bad}\n');
      const r = await same([dir]);
      const codes = r.diagnostics.map((d) => d.code);
      expect(codes).toEqual(
        expect.arrayContaining(['duplicate-identity', 'dependency-cycle', 'dangling-dependency']),
      );
      // the first declaration's position, found in its file again, is in the message
      const duplicate = r.diagnostics.find((d) => d.code === 'duplicate-identity');
      expect(duplicate?.message).toMatch(/a\/1\.yaml:\d+:\d+$/);
    });

    it('power schedules select instances by label in other files, the same either way', async () => {
      const vm = (name: string, team: string) =>
        `apiVersion: paas.envmgmt.io/v1\nkind: ComputeInstance\nmetadata:\n  name: ${name}\n  project: p\n  workspace: w\n  labels: { team: ${team} }\nspec:\n  computeType: baremetal\n  computeProfile: { name: bmaas-l40s }\n  variables: []\n`;
      const sched = (name: string, team: string) =>
        `apiVersion: platctl.io/v1alpha1\nkind: PowerSchedule\nmetadata:\n  name: ${name}\nspec:\n  timeZone: Europe/Berlin\n  periods:\n    - { days: [Mon], start: "08:00", stop: "20:00" }\n  selector:\n    labels: { team: ${team} }\n`;
      writeFileSync(join(dir, '1.yaml'), [ws('w'), vm('a', 'ml'), vm('b', 'web')].join('---\n'));
      writeFileSync(
        join(dir, '2.yaml'),
        [sched('one', 'ml'), sched('two', 'ml'), sched('none', 'ops')].join('---\n'),
      );
      const r = await same([dir]);
      expect(
        r.diagnostics.filter((d) => d.code === 'power-schedule').map((d) => d.severity),
      ).toEqual(['error', 'warning']);
    });
  });
});
