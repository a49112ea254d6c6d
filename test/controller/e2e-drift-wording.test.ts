import { describe, expect, it } from 'vitest';
import { setInstanceVariable } from '../helpers/emulator-store.js';
import { ctlOutput } from './helpers/ctl.js';
import { commitFiles } from './helpers/git-remote.js';
import { instanceYaml, VPC_YAML, workspaceYaml } from './helpers/platform-yaml.js';
import { control, nextStep } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

/**
 * Drift reads the right way round (issue 22, item 3): the platform changed Contract Term from 1
 * to 8; git says 1. Every surface says "platform has 8, git says 1", never "changed from 8 to 1".
 */
const stack = useStack();

const KEY = 'ComputeInstance/platform/ws-a/box';
const SAID = 'spec.variables[Contract Term].value: platform has 8, git says 1';

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
    setInstanceVariable(stack.emulator.store, 'platform/ws-a/box', 'Contract Term', '8');
    const step = nextStep(c);
    c.loop.trigger('resync');
    await step;
    expect(c.status.drift).toEqual([KEY]);

    const status = await ctlOutput(c, ['status']);
    expect(status).toMatch(new RegExp(`${KEY}\\s+Drifted\\s+Drift\\s+.*${literal(SAID)}`));
    expect(status).not.toContain('changed from');
    expect(await ctlOutput(c, ['diff'])).toContain(SAID);
    const detail = await control(c, 'GET', `/api/v1/resources/${encodeURIComponent(KEY)}`);
    expect(detail.body.resource.message).toContain(SAID);
    expect(JSON.stringify(detail.body)).not.toContain('changed from');
  }, 60_000);
});

function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
