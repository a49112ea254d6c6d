import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAndValidate } from '../../src/manifests/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-cycles-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A workspace that depends on the instance living in it: an explicit and an implicit edge. */
const WORKSPACE_ON_ITS_INSTANCE = `apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: dev
  project: ml
  dependsOn:
    - kind: ComputeInstance
      name: gpu-1
      workspace: dev
---
apiVersion: paas.envmgmt.io/v1
kind: ComputeInstance
metadata:
  name: gpu-1
  project: ml
  workspace: dev
spec:
  computeType: baremetal
  computeProfile: {name: bmaas-h100}
  variables: []
`;

/** A VPC that depends on a user whose assignment is in the project... and compute that needs the VPC. */
const VPC_ON_COMPUTE = `apiVersion: paas.envmgmt.io/v1
kind: Service
metadata:
  name: vpc
  project: ml
  dependsOn:
    - {kind: ComputeInstance, name: box, workspace: ws}
spec:
  serviceProfile: {name: vpc}
  serviceType: custom
  variables: []
---
apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: ws
  project: ml
---
apiVersion: paas.envmgmt.io/v1
kind: ComputeInstance
metadata:
  name: box
  project: ml
  workspace: ws
spec:
  computeType: baremetal
  computeProfile: {name: bmaas-h100}
  variables: []
`;

async function cycles(text: string) {
  writeFileSync(join(dir, 'm.yaml'), text);
  const r = await loadAndValidate({ paths: [dir] });
  return r.diagnostics.filter((d) => d.code === 'dependency-cycle');
}

describe('dependency cycles through implicit edges (issue 22, item 4)', () => {
  it('a workspace that depends on an instance living in it: one error at each manifest', async () => {
    const found = await cycles(WORKSPACE_ON_ITS_INSTANCE);
    const path = 'Workspace ml/dev -> ComputeInstance ml/dev/gpu-1 -> Workspace ml/dev';
    expect(found.map((d) => [d.key, d.line, d.col])).toEqual([
      ['Workspace/ml/dev', 7, 7], // its dependsOn entry
      ['ComputeInstance/ml/dev/gpu-1', 16, 14], // its metadata.workspace
    ]);
    for (const d of found) {
      expect(d.severity).toBe('error');
      expect(d.message).toContain(`dependency cycle: ${path}`);
      expect(d.message).not.toMatch(/#|noop|\/ml\//);
    }
    expect(found[1]!.message).toContain('lives in Workspace ml/dev');
  });

  it('a VPC that depends on compute of its own project (mixed with the VPC-before-compute edge)', async () => {
    const found = await cycles(VPC_ON_COMPUTE);
    expect(found.map((d) => d.key)).toEqual(['Service/ml/vpc', 'ComputeInstance/ml/ws/box']);
    expect(found[0]!.message).toContain(
      'dependency cycle: Service ml/vpc -> ComputeInstance ml/ws/box -> Service ml/vpc',
    );
    expect(found[1]!.message).toContain('needs the VPC Service ml/vpc deployed first');
    expect([found[1]!.line, found[1]!.col]).toEqual([23, 12]); // the instance's metadata.project
  });

  it('an explicit cycle is reported at each participant, spelled in kinds and names', async () => {
    const ws = (name: string, on: string) =>
      `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ${name}\n  project: p\n  dependsOn: [{kind: Workspace, name: ${on}}]\n`;
    const found = await cycles([ws('a', 'b'), ws('b', 'a')].join('---\n'));
    expect(found.map((d) => d.key)).toEqual(['Workspace/p/a', 'Workspace/p/b']);
    expect(found[0]!.message).toContain(
      'dependency cycle: Workspace p/a -> Workspace p/b -> Workspace p/a',
    );
  });
});
