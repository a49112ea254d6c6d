import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tooDeepAt } from '../../src/manifests/depth.js';
import { quoteSpansLines } from '../../src/manifests/fast-parse.js';
import { separators } from '../../src/manifests/input-checks.js';

// The loader's pre-scans skip the characters that cannot change their answer; these are the
// character-by-character versions they replaced, kept as the reference the answers must match.

function tooDeepAtReference(text: string, maxDepth: number): number | undefined {
  let flow = 0;
  const indents: number[] = [];
  let i = 0;
  while (i < text.length) {
    let col = 0;
    while (text[i + col] === ' ') col++;
    const start = i + col;
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const first = text[start];
    if (flow === 0 && start < end && first !== '#' && first !== '\r') {
      while (indents.length > 0 && indents[indents.length - 1]! >= col) indents.pop();
      indents.push(col);
      let j = start;
      let compact = 0;
      while (
        (text[j] === '-' || text[j] === '?') &&
        (text[j + 1] === ' ' || text[j + 1] === '\t')
      ) {
        compact++;
        j += 2;
        while (text[j] === ' ') j++;
      }
      if (indents.length + compact > maxDepth) return start;
    }
    let quote: string | undefined;
    for (let k = start; k < end; k++) {
      const c = text[k];
      if (quote) {
        if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (k === start || text[k - 1] === ' ')) break;
      else if (c === '[' || c === '{') {
        if (++flow > maxDepth) return k;
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
    i = end + 1;
  }
  return undefined;
}

function quoteSpansLinesReference(text: string): boolean {
  let double = 0;
  let single = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c) || c === 10) {
      if (double % 2 === 1 || single % 2 === 1) return true;
      double = 0;
      single = 0;
    } else if (c === 92) {
      const next = text.charCodeAt(i + 1);
      if (next === 92 || next === 34) i++;
    } else if (c === 34) double++;
    else if (c === 39) single++;
  }
  return false;
}

const yamlish = fc
  .array(
    fc.constantFrom(
      ...[
        '[',
        ']',
        '{',
        '}',
        '"',
        "'",
        '\\',
        '#',
        ' ',
        '  ',
        '\n',
        '- ',
        '? ',
        '\t',
        '\r',
        'a',
        ': ',
      ],
    ),
    { maxLength: 120 },
  )
  .map((parts) => parts.join(''));

describe('the pre-scans answer as the character-by-character scans did', () => {
  it('tooDeepAt', () => {
    fc.assert(
      fc.property(yamlish, fc.integer({ min: 0, max: 6 }), (text, max) => {
        expect(tooDeepAt(text, max)).toBe(tooDeepAtReference(text, max));
      }),
      { numRuns: 20_000 },
    );
  });

  it('quoteSpansLines', () => {
    fc.assert(
      fc.property(yamlish, (text) => {
        expect(quoteSpansLines(text)).toBe(quoteSpansLinesReference(text));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('separators: where each document marker is', () => {
  const reference = (text: string) => [...text.matchAll(/^---/gm)].map((m) => m.index);
  it('finds the `---` at line starts the multiline pattern finds', () => {
    const piece = fc.constantFrom(
      '---',
      '-',
      '--',
      '----',
      'a',
      ' ',
      '\n',
      '\r',
      '\r\n',
      '\u2028',
      '\u2029',
      'x---',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        expect(separators(text)).toEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
    expect(separators('---\n------\n---x\n a---')).toEqual([0, 4, 11]);
  });
});
