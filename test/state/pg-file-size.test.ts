import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const folders = ['../../src/state/pg/', '../../src/controller/leadership/shards/'];

describe('the PostgreSQL state and the shard code', () => {
  it('keep every module within 250 lines (split along a seam, not arbitrarily)', () => {
    const long = folders.flatMap((folder) => {
      const dir = fileURLToPath(new URL(folder, import.meta.url));
      return readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => ({ f, lines: readFileSync(dir + f, 'utf8').split('\n').length - 1 }))
        .filter((x) => x.lines > 250)
        .map((x) => `${folder}${x.f}: ${x.lines}`);
    });
    expect(long).toEqual([]);
  });
});
