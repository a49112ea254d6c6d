import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DIAGNOSTIC_CODES, loadAndValidate } from '../../src/manifests/index.js';
import { KINDS } from '../../src/model/manifest.js';

/** The loader's promise: whatever the input, it resolves with diagnostics and never throws. */
async function loadsWithoutThrowing(text: string): Promise<void> {
  const r = await loadAndValidate({ paths: ['-'], stdin: text, env: {} });
  const lines = text.split(/\r\n|\r|\n/);
  for (const d of r.diagnostics) {
    expect(DIAGNOSTIC_CODES).toContain(d.code);
    // Every position is inside the input.
    if (d.line !== undefined) {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.line).toBeLessThanOrEqual(lines.length);
      expect(d.col).toBeGreaterThanOrEqual(1);
      expect(d.col).toBeLessThanOrEqual((lines[d.line - 1]?.length ?? 0) + 1);
    }
  }
  if (r.diagnostics.some((d) => d.severity === 'error')) expect(r.manifests).toEqual([]);
}

const kinds = fc.constantFrom<string>(...KINDS, 'Other');

/** Documents shaped like manifests, with arbitrary values in every slot. */
const manifestLike = fc.record(
  {
    apiVersion: fc.oneof(fc.constantFrom('paas.envmgmt.io/v1', 'platctl.io/v1alpha1'), fc.string()),
    kind: kinds,
    metadata: fc.oneof(
      fc.record(
        {
          name: fc.string(),
          project: fc.string(),
          workspace: fc.string(),
          dependsOn: fc.array(fc.record({ kind: kinds, name: fc.string() })),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    ),
    spec: fc.oneof(
      fc.record({ variables: fc.array(fc.record({ name: fc.string(), value: fc.jsonValue() })) }),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);

describe('the loader never throws', () => {
  it('on arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
        await loadsWithoutThrowing(Buffer.from(bytes).toString('utf8'));
      }),
      { numRuns: 300 },
    );
  });

  it('on arbitrary text made of YAML punctuation', async () => {
    const yamlish = fc
      .array(
        fc.constantFrom(
          'a',
          ':',
          ' ',
          '\n',
          '-',
          '[',
          ']',
          '{',
          '}',
          '&x',
          '*x',
          '!!',
          '\t',
          '#',
          '"',
          "'",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal variable reference
          '${V}',
          '---\n',
          '|',
          '>',
          '? ',
        ),
        { maxLength: 80 },
      )
      .map((parts) => parts.join(''));
    await fc.assert(fc.asyncProperty(yamlish, loadsWithoutThrowing), { numRuns: 400 });
  });

  it('on arbitrary YAML values and manifest-shaped documents', async () => {
    const docs = fc.array(fc.oneof(fc.jsonValue(), manifestLike), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(docs, async (values) => {
        await loadsWithoutThrowing(values.map((v) => stringify(v)).join('---\n'));
      }),
      { numRuns: 300 },
    );
  });
});
