import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../core/package-root.js';
import { FAST_TRANSITION_SECONDS, startEmulator } from '../emulator/index.js';
import { createApiClient } from '../providers/index.js';
import { duration } from '../reconcile/render/text.js';
import type { EngineFlags } from './engine-options.js';
import { exitCodeOf, runEngine } from './engine-run.js';

/** Fast lifecycles so the demo finishes in seconds (emulated seconds at clock speed 1). */
const DEMO_TRANSITIONS = FAST_TRANSITION_SECONDS;

const FLAGS: EngineFlags = { output: 'text', var: [], varFile: [] };

/**
 * The demo (I/O): starts the emulator in-process on an ephemeral loopback port with a random key
 * (never printed), then plans and applies `examples/manifests/` with the real engine over HTTP,
 * applies once more for what the first run deferred, shows that a last plan has no changes, and
 * prints a billing excerpt a day later on the emulator's clock. Returns the exit code.
 */
export async function runDemo(out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const started = Date.now();
  const apiKey = randomBytes(24).toString('hex');
  process.env.PLATCTL_DEMO_PASSWORD ??= `Demo-${randomBytes(12).toString('base64url')}`;
  const emulator = await startEmulator({ port: 0, apiKey, transitionSeconds: DEMO_TRANSITIONS });
  const stateDir = mkdtempSync(join(tmpdir(), 'platctl-demo-'));
  const examples = fileURLToPath(new URL('examples/manifests/', packageRoot()));
  const config = {
    baseUrl: emulator.url,
    apiKey,
    statePath: join(stateDir, 'state.db'),
    wait: { pollMs: 200, timeoutMs: 60_000 },
  };
  // each apply follows the plan it executes, so it does not print that plan a second time
  const step = async (title: string, mode: 'plan' | 'apply') => {
    out.write(`\n=== ${title}${mode === 'apply' ? ' (the plan above)' : ''}\n\n`);
    const showPlan = mode === 'plan';
    return runEngine({
      mode,
      paths: [examples],
      flags: FLAGS,
      config,
      autoApprove: true,
      showPlan,
    });
  };
  try {
    out.write(`platctl demo: platform emulator listening on ${emulator.url}\n`);
    const first = await step('platctl plan examples/manifests/', 'plan');
    if (exitCodeOf(first) !== 0) return 1;
    const applied = await step('platctl apply --auto-approve examples/manifests/', 'apply');
    if (exitCodeOf(applied) !== 0) return 1;
    const again = await step(
      'platctl plan examples/manifests/ (what the first apply deferred)',
      'plan',
    );
    if (again.changes) {
      const second = await step('platctl apply --auto-approve examples/manifests/', 'apply');
      if (exitCodeOf(second) !== 0) return 1;
      const last = await step('platctl plan examples/manifests/', 'plan');
      if (last.changes) return 1;
    }
    emulator.clock.advance(24 * 3600);
    await billingExcerpt(emulator.url, apiKey, emulator.clock.now(), out);
    // its own time, so what the README says of it can be checked (the build before is not in it)
    const took = duration(Date.now() - started);
    out.write(`
Demo complete in ${took}: applied, then a plan with no changes.
`);
    return 0;
  } finally {
    await emulator.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

async function billingExcerpt(
  baseUrl: string,
  apiKey: string,
  nowMs: number,
  out: NodeJS.WriteStream,
) {
  const api = createApiClient({ baseUrl, apiKey });
  const res = await api.request<{
    profile_usage_data?: {
      instance_organization_id: string;
      profile_name: string;
      usage: string;
    }[];
  }>({
    method: 'GET',
    path: `/apis/${api.groups.billing}/v1/metrics/partner/profile/kind/compute/usage`,
    auth: 'billing',
    // the window is the emulated days so far (a dialect may require one)
    query: {
      range_from: new Date(nowMs - 2 * 24 * 3600_000).toISOString(),
      range_to: new Date(nowMs).toISOString(),
    },
    operation: 'reading billing usage per profile',
  });
  out.write('\n=== billing, one emulated day later (usage per compute profile)\n\n');
  for (const row of res.body.profile_usage_data ?? []) {
    out.write(`  ${row.instance_organization_id}  ${row.profile_name.padEnd(12)} ${row.usage}\n`);
  }
}
