import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { Plan } from '../../src/model/plan.js';
import type { LiveObject } from '../../src/model/provider.js';
import { createProviderRegistry } from '../../src/providers/index.js';
import { type PlanOptions, plan } from '../../src/reconcile/planner.js';
import { renderPlanText } from '../../src/reconcile/render/text.js';
import type { InventoryEntry } from '../../src/state/types.js';

/**
 * Planner scenarios: each folder of test/fixtures/plans/ holds desired.yaml, live.json and
 * optionally last-applied.yaml, inventory.json and options.json; expected.txt is the golden plan
 * (text rendering plus the order). `UPDATE_GOLDEN=1` rewrites the golden files.
 */
const root = new URL('../fixtures/plans/', import.meta.url);
const cases = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

const read = (c: string, f: string) =>
  readFileSync(fileURLToPath(new URL(`${c}/${f}`, root)), 'utf8');
const has = (c: string, f: string) => existsSync(fileURLToPath(new URL(`${c}/${f}`, root)));
const yamlDocs = (text: string) => parseAllDocuments(text).map((d) => d.toJS() as Manifest);

/** The golden form: what people see, then the order the executor follows. */
function golden(p: Plan): string {
  const order = p.actions
    .filter((a) => a.type !== 'noop')
    .map((a) => `${a.id}${a.dependsOn.length ? ` <- ${a.dependsOn.join(', ')}` : ''}`);
  return `${renderPlanText(p)}\n--- order\n${order.join('\n')}\n`;
}

describe('planner scenarios', () => {
  it.each(cases)('%s', (c) => {
    const desired = yamlDocs(read(c, 'desired.yaml'));
    const live = JSON.parse(read(c, 'live.json')) as LiveObject[];
    const last = has(c, 'last-applied.yaml') ? yamlDocs(read(c, 'last-applied.yaml')) : [];
    const inventory = has(c, 'inventory.json')
      ? (JSON.parse(read(c, 'inventory.json')) as InventoryEntry[])
      : [];
    const options = has(c, 'options.json')
      ? (JSON.parse(read(c, 'options.json')) as Partial<PlanOptions>)
      : {};
    const before = JSON.stringify([desired, live, last, inventory]);
    const p = plan(desired, live, new Map(last.map((m) => [manifestKey(m), m])), {
      ...options,
      providers: createProviderRegistry(),
      inventory,
    });
    expect(JSON.stringify([desired, live, last, inventory])).toBe(before);
    const text = golden(p);
    const file = fileURLToPath(new URL(`${c}/expected.txt`, root));
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, text);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });
});
