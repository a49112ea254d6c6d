import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-policy-test-'));
  cpSync('examples/policies', dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('platctl policy test', () => {
  it('passes on the examples: each case fails exactly the rules it expects', async () => {
    const r = await runCli(['policy', 'test', dir]);
    expect(r.stdout).toContain('4 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('exits 1 on a mismatch, naming the rule, the manifest and the rule’s message', async () => {
    writeFileSync(
      join(dir, 'policy-test.yaml'),
      `policies: [guardrails.yaml]
tests:
  - name: wrongly expects a pass
    manifests: [fixtures/unlabelled.yaml]
    expect: []
  - name: wrongly expects a failure
    manifests: [fixtures/labelled.yaml]
    expect: [{ rule: instances-labelled, key: ComputeInstance/ml-research/dev/box }]
`,
    );
    const r = await runCli(['policy', 'test', dir]);
    expect(r.stdout).toContain(
      'FAIL wrongly expects a pass\n  failed, not expected: instances-labelled ComputeInstance/ml-research/dev/box: instance ml-research/box has no team label',
    );
    expect(r.stdout).toContain(
      'FAIL wrongly expects a failure\n  expected to fail, passed: instances-labelled ComputeInstance/ml-research/dev/box',
    );
    expect(r.stdout).toContain('0 passed, 2 failed');
    expect(r.code).toBe(1);
  });
});
