// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text
import { describe, expect, it } from 'vitest';
import { tooDeepAt } from '../../src/manifests/depth.js';
import { linePos, lineStarts } from '../../src/manifests/parse.js';
import { closest } from '../../src/manifests/schema-messages.js';
import { schemaFileOf } from '../../src/manifests/schemas.js';
import { securityPoliciesProblem } from '../../src/manifests/validate-document.js';
import { parseVarFile, substituteString } from '../../src/manifests/variables.js';

describe('substituteString', () => {
  const lookup = (n: string) => ({ A: 'x', EMPTY: '' })[n];
  it('replaces, escapes and reports what is missing', () => {
    expect(substituteString('${A}-${A}', lookup)).toEqual({
      value: 'x-x',
      missing: [],
      used: ['A', 'A'],
      changed: true,
      refused: false,
    });
    expect(substituteString('$${A} ${EMPTY}.', lookup).value).toBe('${A} .');
    expect(substituteString('${NOPE} ${A}', lookup)).toMatchObject({
      value: '${NOPE} x',
      missing: ['NOPE'],
    });
    expect(substituteString('$A ${ A } ${1A}', lookup)).toMatchObject({
      changed: false,
      missing: [],
    });
  });
});

describe('parseVarFile', () => {
  it('reads a YAML map or KEY=VALUE lines, and explains what it cannot read', () => {
    expect(parseVarFile('A: 1\nB: "two"\n').vars).toEqual({ A: '1', B: 'two' });
    expect(parseVarFile('# c\nA=1\nexport B="two words"\n\nC=\n').vars).toEqual({
      A: '1',
      B: 'two words',
      C: '',
    });
    expect(parseVarFile('A: {nested: 1}\n').error).toBe('A is not a scalar value');
    expect(parseVarFile('A=1\nnot a line\n').error).toBe(
      'line 2 is neither KEY=VALUE nor part of a YAML map',
    );
  });
});

describe('tooDeepAt', () => {
  it('accepts realistic nesting, literal blocks and brackets in quotes', () => {
    const nested = Array.from({ length: 30 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n');
    expect(tooDeepAt(nested, 64)).toBeUndefined();
    const literal = `script: |\n${Array.from({ length: 10 }, (_, i) => `${'  '.repeat(i + 1)}x`).join('\n')}\n`;
    expect(tooDeepAt(literal, 64)).toBeUndefined();
    expect(
      tooDeepAt(`a: "${'['.repeat(100)}"\nb: '${'{'.repeat(100)}' # ${'['.repeat(100)}`, 64),
    ).toBeUndefined();
  });

  it('points at the first place nesting goes too deep', () => {
    expect(tooDeepAt(`a: ${'['.repeat(10)}`, 5)).toBe(8); // the sixth [
    expect(tooDeepAt('- - - - - - x', 5)).toBe(0);
    expect(tooDeepAt('a:\n b:\n  c:\n   d:\n', 3)).toBe(15); // where d starts
  });
});

describe('line index', () => {
  it('handles LF, CRLF and lone CR', () => {
    const starts = lineStarts('ab\ncd\r\nef\rg');
    expect(starts).toEqual([0, 3, 7, 10]);
    expect(linePos(starts, 0)).toEqual({ line: 1, col: 1 });
    expect(linePos(starts, 4)).toEqual({ line: 2, col: 2 });
    expect(linePos(starts, 10)).toEqual({ line: 4, col: 1 });
  });
});

describe('small helpers', () => {
  it('names schema files in kebab case', () => {
    expect(schemaFileOf('ComputeInstance')).toBe('compute-instance.schema.json');
    expect(schemaFileOf('User')).toBe('user.schema.json');
  });

  it('suggests the closest name within two edits', () => {
    expect(closest('Contract Tern', ['Contract Term', 'OS'])).toBe('Contract Term');
    expect(closest('zzzz', ['Contract Term', 'OS'])).toBeUndefined();
  });

  it('checks Security Policies rules', () => {
    expect(securityPoliciesProblem('[]')).toBeUndefined();
    expect(
      securityPoliciesProblem('[{"source_cidr": "10.0.0.0/8", "port": "22"}]'),
    ).toBeUndefined();
    expect(securityPoliciesProblem('{}')).toBe('must be a JSON list of rules');
    expect(securityPoliciesProblem('[1]')).toBe('rule 0 must be an object');
    expect(securityPoliciesProblem('[{"ports": "22"}]')).toMatch(/^rule 0 has unknown field ports/);
  });
});
