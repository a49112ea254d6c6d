import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningController } from '../../src/controller/controller.js';
import { commitFiles } from './helpers/git-remote.js';
import {
  CONTROL_TOKEN,
  control,
  createStack,
  instanceYaml,
  nextStep,
  type Stack,
  VPC_YAML,
  workspaceYaml,
} from './helpers/stack.js';

/**
 * Drift reads the right way round (issue 22, item 3): the platform changed Contract Term from 1
 * to 8; git says 1. Every surface says "platform has 8, git says 1", never "changed from 8 to 1".
 */
let stack: Stack;
beforeEach(async () => {
  stack = await createStack();
});
afterEach(async () => {
  await stack.close();
});

const KEY = 'ComputeInstance/platform/ws-a/box';
const SAID = 'spec.variables[Contract Term].value: platform has 8, git says 1';

/** Sets the instance's Contract Term on the platform, behind platctl's back. */
function driftContractTerm(value: string): void {
  type Rec = { spec: { variables: { name: string; value: string }[] } };
  const rec = stack.emulator.store.get<Rec>('computeinstances', 'platform/ws-a/box')!;
  for (const v of rec.spec.variables) if (v.name === 'Contract Term') v.value = value;
  stack.emulator.store.put('computeinstances', 'platform/ws-a/box', rec);
}

/** `platctl ctl ...` in this process against the controller; its standard output. */
async function ctl(c: RunningController, args: string[]): Promise<string> {
  let stdout = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  process.env.PLATCTL_CONTROLLER_URL = `http://127.0.0.1:${c.address.port}`;
  process.env.PLATCTL_CONTROL_TOKEN = CONTROL_TOKEN;
  try {
    await main(['node', 'platctl', 'ctl', ...args]);
    return stdout;
  } finally {
    out.mockRestore();
    process.exitCode = undefined;
    delete process.env.PLATCTL_CONTROLLER_URL;
    delete process.env.PLATCTL_CONTROL_TOKEN;
  }
}

describe('drift wording', () => {
  it('ctl status, ctl diff and the control API the dashboard reads say what each side holds', async () => {
    commitFiles(
      stack.remote,
      {
        'platform/vpc.yaml': VPC_YAML,
        'platform/ws.yaml': workspaceYaml('ws-a', 'from-git'),
        'platform/box.yaml': instanceYaml('ws-a', 'box'),
      },
      'ws-a and its box',
    );
    const c = await stack.controller({ selfHeal: false });
    await nextStep(c, (o) => o.result === 'succeeded');
    driftContractTerm('8');
    const step = nextStep(c);
    c.loop.trigger('resync');
    await step;
    expect(c.status.drift).toEqual([KEY]);

    const status = await ctl(c, ['status']);
    expect(status).toMatch(new RegExp(`${KEY}\\s+Drifted\\s+Drift\\s+.*${literal(SAID)}`));
    expect(status).not.toContain('changed from');
    expect(await ctl(c, ['diff'])).toContain(SAID);
    const detail = await control(c, 'GET', `/api/v1/resources/${encodeURIComponent(KEY)}`);
    expect(detail.body.resource.message).toContain(SAID);
    expect(JSON.stringify(detail.body)).not.toContain('changed from');
  }, 60_000);
});

function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
