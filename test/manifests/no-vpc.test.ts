import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAndValidate } from '../../src/manifests/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-no-vpc-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const instance = (project: string, name: string) => `apiVersion: paas.envmgmt.io/v1
kind: ComputeInstance
metadata:
  name: ${name}
  project: ${project}
  workspace: ws
spec:
  computeType: baremetal
  computeProfile: {name: bmaas-h100}
  variables: []
`;
const workspace = (project: string) =>
  `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata: {name: ws, project: ${project}}\n`;

// issue 22, item 5: 5,000 instances gave 5,000 identical warnings (and as many positions)
describe('compute in a project without a declared VPC', () => {
  it('warns once per project, at its first instance, counting the instances', async () => {
    const docs = [
      workspace('alpha'),
      ...Array.from({ length: 300 }, (_, i) => instance('alpha', `a-${i}`)),
      workspace('beta'),
      instance('beta', 'b-0'),
    ];
    writeFileSync(join(dir, 'm.yaml'), docs.join('---\n'));
    const r = await loadAndValidate({ paths: [dir] });
    const warned = r.diagnostics.filter((d) => d.code === 'no-vpc-in-project');
    expect(warned.map((d) => [d.key, d.line, d.col])).toEqual([
      ['ComputeInstance/alpha/ws/a-0', 9, 12],
      ['ComputeInstance/beta/ws/b-0', 3313, 12],
    ]);
    expect(warned[0]!.message).toBe(
      'no VPC Service is declared in project alpha; its 300 compute instances need a deployed VPC there (plan checks the platform)',
    );
    expect(warned[1]!.message).toContain('its compute instance needs');
  });
});
