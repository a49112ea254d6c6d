import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('platctl demo', () => {
  it('plans, applies and ends with a plan that has no changes, in well under a minute', async () => {
    const password = 'Demo-password-not-printed-1';
    const r = await runCli(['demo'], {
      env: { PLATCTL_DEMO_PASSWORD: password },
      timeoutMs: 55_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    // the first plan, shown once: the apply that follows does not print it again
    expect(r.stdout.match(/Plan: 18 to create, 0 to update/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/=== platctl plan examples\/manifests\/\n\nNo changes\./);
    // it says how long it took (the README's "about ten seconds" is this figure)
    expect(r.stdout).toMatch(/Demo complete in [\dm]+s: applied, then a plan with no changes\./);
    expect(r.stdout + r.stderr).not.toContain(password);
    expect(r.stdout + r.stderr).not.toMatch(/x-api-key|apiKey/i);
  }, 60_000);
});
