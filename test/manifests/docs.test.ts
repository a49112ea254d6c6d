import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, KINDS, loadAndValidate } from '../../src/manifests/index.js';

const doc = readFileSync(
  fileURLToPath(new URL('../../docs/manifests.md', import.meta.url)),
  'utf8',
);
const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
const manifests = blocks.filter((b) => /^kind: /m.test(b));

describe('docs/manifests.md', () => {
  it('has a complete example with an editor modeline for every kind', () => {
    for (const kind of KINDS) {
      const example = manifests.find((b) => b.includes(`\nkind: ${kind}\n`));
      expect(example, kind).toBeDefined();
      expect(example).toMatch(/^# yaml-language-server: \$schema=/);
    }
  });

  it('examples are valid manifests', async () => {
    for (const text of manifests) {
      const r = await loadAndValidate({ paths: ['-'], stdin: text, env: {} });
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      expect(errors, text.split('\n').slice(0, 4).join(' ')).toEqual([]);
    }
  });

  it('lists every diagnostic code', () => {
    for (const code of DIAGNOSTIC_CODES) expect(doc).toContain(`\`${code}\``);
  });
});
