import { describe, expect, it } from 'vitest';
import { renderDocument, renderFiles } from '../../src/import/files.js';
import { renderAhead } from '../../src/import/render-ahead.js';
import type { Manifest } from '../../src/model/manifest.js';

const ws = (name: string, project: string): Manifest =>
  ({
    apiVersion: 'platctl.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name, project, labels: { team: `t-${name}` } },
    spec: {},
  }) as unknown as Manifest;

describe('documents rendered while the platform is read', () => {
  it('write the files renderFiles writes on its own, queued or not, across slices', async () => {
    const all = Array.from({ length: 100 }, (_, i) => ws(`w${(i * 37) % 100}`, `p${i % 3}`));
    const ahead = renderAhead();
    ahead.add(all.slice(0, 40));
    ahead.add(all.slice(40, 90)); // the last ten are not queued: rendered when asked
    const texts = await ahead.texts();
    expect(renderFiles(all, 'schema.json', texts)).toEqual(renderFiles(all, 'schema.json'));
    expect(texts(all[95]!)).toBe(renderDocument(all[95]!));
  });

  it('yields to the event loop between slices, so timers due meanwhile run', async () => {
    const order: string[] = [];
    const ahead = renderAhead((m) => {
      order.push(m.metadata.name);
      return '';
    });
    setImmediate(() => order.push('timer'));
    ahead.add(Array.from({ length: 100 }, (_, i) => ws(`w${i}`, 'p')));
    await ahead.texts();
    const at = order.indexOf('timer');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(100);
  });
});
