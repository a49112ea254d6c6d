import { describe, expect, it } from 'vitest';
import { loadAndValidate } from '../../src/manifests/index.js';

const POLICY = `apiVersion: platctl.io/v1alpha1
kind: Policy
metadata:
  name: guardrails
spec:
  rules:
    - name: labelled
      expression: has(object.metadata.labels)
      effect: warn
    - name: broken
      expression: object.spec.gpus <=
      effect: deny
    - name: bad-message
      expression: "true"
      effect: warn
      message: "gpus {{ object.spec. }}"
`;

describe('a Policy rule that does not compile', () => {
  it('is a validate error at the field, with CEL’s own column in the message', async () => {
    const r = await loadAndValidate({ paths: ['-'], stdin: POLICY, env: {} });
    expect(r.manifests).toEqual([]);
    expect(r.diagnostics.map((d) => [d.code, d.path, d.line, d.col, d.severity])).toEqual([
      ['policy-syntax', 'spec.rules[1].expression', 11, 19, 'error'],
      ['policy-syntax', 'spec.rules[2].message', 16, 16, 'error'],
    ]);
    expect(r.diagnostics[0]!.message).toMatch(
      /^rule broken: expression does not compile: CEL 1:\d+: /,
    );
  });

  it('a rule that compiles is no diagnostic', async () => {
    const ok = POLICY.split('    - name: broken')[0]!;
    const r = await loadAndValidate({ paths: ['-'], stdin: ok, env: {} });
    expect(r.diagnostics).toEqual([]);
    expect(r.manifests.map((m) => m.key)).toEqual(['Policy/guardrails']);
  });
});
