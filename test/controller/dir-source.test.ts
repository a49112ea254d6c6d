import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/controller/duration.js';
import { DirectorySource } from '../../src/controller/sources/dir-source.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-dirsrc-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('DirectorySource (--watch)', () => {
  it('gives a new revision when content changes and the same one when it does not', async () => {
    const dir = join(root, 'm1');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'a.yaml'), 'one');
    const src = new DirectorySource({ dir, cacheDir: join(root, 'cache1') });
    const signal = new AbortController().signal;
    const r1 = await src.fetch(signal);
    expect(r1.revision).toMatch(/^dir:[0-9a-f]{16}$/);
    expect((await src.fetch(signal)).revision).toBe(r1.revision);
    await writeFile(join(dir, 'a.yaml'), 'two');
    const r2 = await src.fetch(signal);
    expect(r2.revision).not.toBe(r1.revision);
    await writeFile(join(dir, '.platctl-suspend'), '');
    expect((await src.fetch(signal)).suspendFile).toBe(true);
  });

  it('reports a burst of edits once, after the debounce', async () => {
    const dir = join(root, 'm2');
    await mkdir(dir, { recursive: true });
    const src = new DirectorySource({ dir, cacheDir: join(root, 'cache2'), debounceMs: 150 });
    let calls = 0;
    const stop = src.watch(() => {
      calls++;
    });
    try {
      await new Promise((r) => setTimeout(r, 300)); // let the watcher settle
      for (let i = 0; i < 5; i++) await writeFile(join(dir, `f${i}.yaml`), String(i));
      const deadline = Date.now() + 5_000;
      while (calls === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, 300));
      expect(calls).toBe(1);
    } finally {
      await stop();
    }
  });
});

describe('parseDuration', () => {
  it('reads the units the flags document', () => {
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('2')).toBe(2_000);
  });
  it('refuses anything else, naming the flag', () => {
    expect(() => parseDuration('5 minutes', '--interval')).toThrow(/--interval/);
    expect(() => parseDuration('0s', '--interval')).toThrow(/longer than zero/);
    expect(() => parseDuration('5m3', '--interval')).toThrow(/--interval/);
  });
});
