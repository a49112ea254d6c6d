import { tests } from '@bufbuild/cel-spec/testdata/conformance.js';
import { describe, expect, it } from 'vitest';
import { compileRule } from '../../src/manifests/policy-rules.js';

/**
 * The CEL subset a policy rule uses — literals, logic, comparisons, strings, lists, maps and the
 * macros (`has`, `all`, `exists`, `map`, `filter`) on plain data — checked against the CEL
 * conformance suite that @bufbuild/cel-spec ships, through the same compile path as rules. Cases
 * that need protobuf messages, type declarations, bindings or other containers are outside it.
 */
const SECTIONS = ['basic', 'logic', 'comparisons', 'string', 'lists', 'macros'];

type Expected = { boolValue?: boolean; int64Value?: string; stringValue?: string };
interface Case {
  name: string;
  expr: string;
  value?: Expected;
  evalError?: unknown;
  [other: string]: unknown;
}

function* cases(): Generator<[string, Case]> {
  for (const section of tests.suites ?? []) {
    if (!SECTIONS.includes(section.name)) continue;
    for (const suite of section.suites ?? []) {
      for (const t of suite.tests ?? []) {
        const c = t.original as unknown as Case;
        const plain = Object.keys(c).every((k) =>
          ['name', 'expr', 'value', 'evalError'].includes(k),
        );
        const v = c.value;
        const scalar =
          v &&
          Object.keys(v).length === 1 &&
          ['boolValue', 'int64Value', 'stringValue'].some((k) => k in v);
        if (plain && (scalar || c.evalError)) yield [`${section.name}/${suite.name}/${c.name}`, c];
      }
    }
  }
}

const all = [...cases()];

describe('CEL conformance, for the subset policies expose', () => {
  it('covers a useful number of cases', () => {
    expect(all.length).toBeGreaterThan(200);
  });

  it.each(all)('%s', (_name, c) => {
    const { check } = compileRule({ name: 'c', expression: c.expr, effect: 'deny' });
    const got = check({});
    if (c.evalError) {
      expect(got, 'an error').toBeInstanceOf(Error);
      return;
    }
    const v = c.value!;
    if ('boolValue' in v) expect(got).toBe(v.boolValue);
    else if ('int64Value' in v) expect(got).toBe(BigInt(v.int64Value!));
    else expect(got).toBe(v.stringValue);
  });
});
