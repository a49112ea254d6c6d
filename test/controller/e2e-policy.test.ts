import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationConfig } from '../../src/controller/notify/config.js';
import { ctlOutput } from './helpers/ctl.js';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.js';
import {
  control,
  createStack,
  nextStep,
  type Stack,
  workspaceDescription,
} from './helpers/stack.js';

/**
 * Policies in the controller (issue 25): a `require-approval` rule holds the run until a person
 * approves it through the control API or `platctl ctl approve`; a `deny` rule refuses the
 * revision (`PolicyDenied`), keeps the last good one desired, and notifies.
 */
let stack: Stack;
let rx: Receiver;
beforeEach(async () => {
  stack = await createStack();
  rx = await startReceiver();
});
afterEach(async () => {
  await stack.close();
  await rx.close();
});

const policyYaml = (effect: string) => `apiVersion: platctl.io/v1alpha1
kind: Policy
metadata:
  name: guardrails
spec:
  rules:
    - name: no-gone-workspaces
      match: { kinds: [Workspace] }
      expression: object.metadata.description != 'gone'
      effect: ${effect}
      message: "workspace {{ object.metadata.name }} may not say gone"
`;

const notifications = (): NotificationConfig => ({
  providers: [{ name: 'hook', type: 'webhook', url: `${rx.url}/hook` }],
});

describe('policies in the controller', () => {
  it('require-approval holds the run, sends nothing, and runs once approved', async () => {
    commitFiles(
      stack.remote,
      {
        'platform/ws.yaml': workspaceYaml('held', 'gone'),
        'platform/policy.yaml': policyYaml('require-approval'),
      },
      'a workspace that needs approval',
    );
    const c = await stack.controller({ notifications: notifications() });
    const held = await nextStep(c);
    expect(held.result).toBe('policy-held');
    expect(await workspaceDescription(stack, 'held')).toBeUndefined();
    expect(c.status.heldPolicy).toMatchObject({
      runId: held.runId,
      rules: ['no-gone-workspaces'],
      findings: [
        {
          key: 'Workspace/platform/held',
          message: 'workspace held may not say gone',
          at: 'ws.yaml:1:1',
        },
      ],
    });
    expect(c.status.conditions.find((x) => x.key === 'Workspace/platform/held')).toMatchObject({
      condition: 'Degraded',
      reason: 'PolicyHeld',
    });
    const status = await control(c, 'GET', '/api/v1/status');
    expect(status.body.heldPolicy.rules).toEqual(['no-gone-workspaces']);
    expect(status.body.lastError).toContain(`platctl ctl approve ${held.runId}`);
    expect(await ctlOutput(c, ['status'])).toContain('policy held:  rule(s) no-gone-workspaces');
    // whoever must approve is told, with the command
    const asked = await rx.waitFor((r: Received) => r.json?.kind === 'approval-required');
    expect(asked.json.details[0]).toContain(`platctl ctl approve ${held.runId}`);

    // an unknown run holds nothing; the held one is approved through `platctl ctl approve`
    expect((await control(c, 'POST', '/api/v1/runs/no-such-run/approve')).status).toBe(404);
    const applied = nextStep(c, (o) => o.result === 'succeeded');
    expect(await ctlOutput(c, ['approve', held.runId!])).toContain('approved');
    await applied;
    expect(await workspaceDescription(stack, 'held')).toBe('gone');
    expect(c.status.heldPolicy).toBeUndefined();
    expect(stack.logs.some((l) => l.includes('"event":"policy-approved"'))).toBe(true);
    await rx.waitFor((r: Received) => r.json?.recovered === 'approval-required');
  }, 60_000);

  it('deny refuses the revision as PolicyDenied, keeps the last good one, and notifies', async () => {
    commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('keep', 'good') }, 'good');
    const c = await stack.controller({ notifications: notifications() });
    await nextStep(c, (o) => o.result === 'succeeded');
    const good = c.status.lastAppliedRevision;

    const bad = commitFiles(
      stack.remote,
      {
        'platform/ws.yaml': workspaceYaml('keep', 'gone'),
        'platform/policy.yaml': policyYaml('deny'),
      },
      'a denied change',
    );
    const denied = nextStep(c);
    c.loop.trigger('test', 'manual', { withSource: true });
    expect((await denied).result).toBe('invalid');
    expect(await workspaceDescription(stack, 'keep')).toBe('good');
    expect(c.status.rejected[0]).toMatchObject({ revision: bad, reason: 'PolicyDenied' });
    expect(c.status.rejected[0]?.diagnostics[0]).toMatchObject({
      code: 'policy-denied',
      at: 'ws.yaml:1:1',
    });
    expect(c.status.conditions.find((x) => x.key === 'Workspace/platform/keep')).toMatchObject({
      condition: 'Degraded',
      reason: 'PolicyDenied',
    });
    expect(c.status.lastGoodRevision).toBe(good);
    expect(c.status.sourceReady).toBe(false);
    const alert = await rx.waitFor((r: Received) => r.json?.kind === 'revision-rejected');
    expect(alert.json.summary).toContain('denied by policy');

    // the next run reconciles the last good revision: drift on it is still healed
    await stack.api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'keep', project: 'platform', description: 'by hand' },
    });
    const resync = nextStep(c);
    c.loop.trigger('test');
    const step = await resync;
    expect(step.revision).toBe(good);
    expect(await workspaceDescription(stack, 'keep')).toBe('good');
  }, 60_000);
});
