import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { INSTANT, world } from './harness.js';

/**
 * A plan that could not read part of the platform must not pass for a clean one: posted on a
 * pull request, "No changes" with exit 0 would say the platform matches git when nobody looked.
 */
describe('platctl plan when reads keep failing', () => {
  let w: Awaited<ReturnType<typeof world>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    w = await world(INSTANT);
    env = { ...w.env, PLATCTL_BASE_URL: w.emulator.url, PLATCTL_API_KEY: w.apiKey };
    const applied = await runCli(
      ['apply', w.manifests, '--state', join(w.dir, 's.db'), '--auto-approve'],
      { env },
    );
    expect(applied.code, applied.stderr).not.toBe(2);
  });
  afterAll(async () => w?.close());

  it('exits 1, names the unread resources in text and JSON, and says why', async () => {
    await w.fault({ path: '^/apis/.*/workspaces$', method: 'GET', status: 500 });
    const state = join(w.dir, 's.db');
    const text = await runCli(['plan', w.manifests, '--state', state], { env });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /error: incomplete: the live state of \d+ resources? could not be read/,
    );
    const md = await runCli(['plan', w.manifests, '--state', state, '-o', 'markdown'], { env });
    expect(md.code).toBe(1);
    expect(md.stdout).toMatch(/\*\*error\*\*: incomplete: the live state of/);
    const json = await runCli(['plan', w.manifests, '--state', state, '-o', 'json'], { env });
    expect(json.code).toBe(1);
    const plan = JSON.parse(json.stdout) as { unreadable?: string[] };
    expect(plan.unreadable?.length).toBeGreaterThan(0);
    expect(plan.unreadable?.every((k) => k.startsWith('Workspace/'))).toBe(true);
    await w.clearFaults();
    const clean = await runCli(['plan', w.manifests, '--state', state, '-o', 'json'], { env });
    expect(clean.code, clean.stderr).toBe(0);
    expect((JSON.parse(clean.stdout) as { unreadable?: string[] }).unreadable).toBeUndefined();
  }, 90_000); // four CLI runs, three of them retrying 500s with backoff
});
