import { describe, expect, it } from 'vitest';
import { commitFiles } from './helpers/git-remote.js';
import { instancePath, instanceYaml, VPC_YAML, workspaceYaml } from './helpers/platform-yaml.js';
import { control, nextStep } from './helpers/stack.js';
import { commitTwoBoxes, FREE, PINNED, powerOf } from './helpers/two-boxes.js';
import { useStack } from './helpers/use-stack.js';

/**
 * Power from the control API (the dashboard's buttons): only where git allows it (no pinned
 * power state, no PowerSchedule, no ChangeWindow holding power now), carried out by the
 * controller's own run, recorded in the instance's history, and kept by the next runs.
 */
const stack = useStack();

const path = (key: string, verb = '') =>
  `/api/v1/resources/${encodeURIComponent(key)}${verb ? `/${verb}` : ''}`;
/** The power actions the platform was sent for `name`, in order. */
async function sent(name: string): Promise<string[]> {
  const at = `${instancePath('ws-a', name)}/action/`;
  return (await stack.journal())
    .filter((e) => e.method === 'POST' && e.path.startsWith(at))
    .map((e) => e.path.slice(at.length));
}

describe('power actions through the control API', () => {
  it('powers off only where git allows, through the run, and the next run keeps it off', async () => {
    commitTwoBoxes(stack);
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    expect(await powerOf(stack, 'free')).toBe('on');

    // what each page offers: the pinned one says why not
    const free = (await control(c, 'GET', path(FREE))).body;
    expect(free.power).toEqual({ actions: ['off', 'reboot'], reasons: [] });
    const pinned = (await control(c, 'GET', path(PINNED))).body;
    expect(pinned.power.actions).toEqual(['reboot']);
    expect(pinned.power.reasons[0]).toMatch(
      /^git pins its power state: platctl.io\/power-state: "on" at pinned\.yaml:\d+$/,
    );

    // authenticated like the other verbs; refused where git pins the state
    expect((await control(c, 'POST', path(FREE, 'power'), { action: 'off' }, null)).status).toBe(
      401,
    );
    const refused = await control(c, 'POST', path(PINNED, 'power'), { action: 'off' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/git pins its power state/);
    expect((await control(c, 'POST', path(FREE, 'power'), { action: 'halt' })).status).toBe(400);

    const ran = nextStep(c, (o) => o.result === 'succeeded');
    const asked = await control(c, 'POST', path(FREE, 'power'), { action: 'off' });
    expect(asked.status).toBe(202);
    const run = await ran;
    expect(await powerOf(stack, 'free')).toBe('off');
    expect(await sent('free')).toEqual(['stop']);
    expect(await sent('pinned')).toEqual([]);
    const stop = run.report?.plan?.actions.find((a) => a.key === FREE && a.type === 'power');
    expect(stop?.reason.message).toMatch(
      /should be powered off, is on \(requested through the control API at /,
    );

    // its history says so, and another run does not power it on again
    const history = (await control(c, 'GET', path(FREE))).body;
    expect(history.actions[0]).toMatchObject({ type: 'power', outcome: 'succeeded' });
    expect(history.power).toEqual({ actions: ['on'], reasons: [] });
    const again = nextStep(c, (o) => o.result === 'succeeded');
    expect((await control(c, 'POST', '/api/v1/reconcile', {})).status).toBe(202);
    await again;
    expect(await powerOf(stack, 'free')).toBe('off');
    expect(await sent('free')).toEqual(['stop']);
  }, 60_000);

  it('offers no power action while a change window holds power, nor while suspended', async () => {
    const freeze = [
      'apiVersion: platctl.io/v1alpha1',
      'kind: ChangeWindow',
      'metadata:',
      '  name: freeze',
      'spec:',
      '  window: deny',
      '  actions: [power]',
      '  timeZone: UTC',
      '  dates:',
      `    - from: "${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}"`,
      `      to: "${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}"`,
      '',
    ].join('\n');
    commitFiles(
      stack.remote,
      {
        'platform/vpc.yaml': VPC_YAML,
        'platform/ws.yaml': workspaceYaml('ws-a', 'one box'),
        'platform/free.yaml': instanceYaml('ws-a', 'free'),
        'platform/freeze.yaml': freeze,
      },
      'a box and a freeze on power actions',
    );
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    const page = (await control(c, 'GET', path(FREE))).body;
    expect(page.power.actions).toEqual([]);
    expect(page.power.reasons[0]).toMatch(
      /^change window ChangeWindow\/freeze holds power actions until /,
    );
    const refused = await control(c, 'POST', path(FREE, 'power'), { action: 'reboot' });
    expect(refused.status).toBe(409);
    expect((await control(c, 'POST', '/api/v1/suspend')).status).toBe(200);
    const suspended = (await control(c, 'GET', path(FREE))).body;
    expect(suspended.power.reasons).toEqual([
      'the controller is suspended: it changes nothing until resumed',
    ]);
  }, 60_000);
});
