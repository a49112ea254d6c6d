import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BILLING,
  bareMetalBody,
  P,
  type PaasHarness,
  startPaasForCompute,
} from './fixtures-paas/harness.js';

const H = 3600;
const iso = (ms: number) => new Date(ms).toISOString();

describe('power actions over HTTP', () => {
  let h: PaasHarness;
  beforeAll(async () => {
    h = await startPaasForCompute();
  });
  afterAll(async () => h.close());

  const ci = `${P}/platform/workspaces/ws/computeinstances`;
  const act = (name: string, action: string) =>
    h.call('POST', `${ci}/${name}/action/${action}`, {});
  const power = async (name: string) =>
    (await h.call('GET', `${ci}/${name}`)).body.status.powerState;

  it('refuses every action before the instance is success (409)', async () => {
    await h.call('POST', ci, bareMetalBody('pw'));
    for (const a of ['start', 'stop', 'Power%20reset', 'Power%20cycle']) {
      expect((await act('pw', a)).status, a).toBe(409);
    }
    await h.call('POST', `${ci}/pw/publish`);
    expect((await act('pw', 'stop')).status).toBe(409); // provisioning
    await h.advance(300);
    expect(await power('pw')).toBe('on');
  });

  it('follows the power rules: stop needs on, start needs off, reset and cycle need on', async () => {
    const start = await act('pw', 'start');
    expect(start.status).toBe(409);
    expect(start.body.code).toBe('not_allowed');
    const stop = await act('pw', 'stop');
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({ status: 'Success' });
    expect(typeof stop.body.message).toBe('string');
    expect(await power('pw')).toBe('off');
    expect((await act('pw', 'stop')).status).toBe(409);
    expect((await act('pw', 'Power%20reset')).status).toBe(409);
    expect((await act('pw', 'Power%20cycle')).status).toBe(409);
    expect((await act('pw', 'start')).status).toBe(200);
    expect(await power('pw')).toBe('on');
    expect((await act('pw', 'Power%20reset')).status).toBe(200);
    expect(await power('pw')).toBe('on');
    expect((await act('pw', 'Power%20cycle')).status).toBe(200);
    expect(await power('pw')).toBe('on');
  });

  it('answers 400 for an unknown action, naming it, and 404 for an unknown instance', async () => {
    for (const a of ['reboot', 'Power%20off', 'power%20reset', 'START']) {
      const r = await act('pw', a);
      expect(r.status, a).toBe(400);
      expect(r.body.details[0].field).toBe('action');
    }
    expect((await act('ghost', 'start')).status).toBe(404);
    expect(
      (await h.call('POST', `${P}/platform/workspaces/nope/computeinstances/pw/action/stop`, {}))
        .status,
    ).toBe(404);
  });

  it('refuses power actions while deleting (409) and needs a key (401)', async () => {
    expect((await h.anonymous('POST', `${ci}/pw/action/stop`)).status).toBe(401);
    await h.call('DELETE', `${ci}/pw`);
    expect((await act('pw', 'stop')).status).toBe(409);
    await h.advance(60);
    expect((await act('pw', 'stop')).status).toBe(404);
  });
});

describe('billing while powered off', () => {
  let h: PaasHarness;
  beforeAll(async () => {
    h = await startPaasForCompute();
  });
  afterAll(async () => h.close());

  it('accrues only while powered on: a stop closes the stretch, a start opens another', async () => {
    const ci = `${P}/platform/workspaces/ws/computeinstances`;
    await h.call('POST', ci, bareMetalBody('bm-p'));
    const published = await h.now();
    await h.call('POST', `${ci}/bm-p/publish`);
    const from = Math.floor(published / 1000) * 1000 + 400_000; // after provisioning (300 s)
    await h.advance(400 + 10 * H);
    expect((await h.call('POST', `${ci}/bm-p/action/stop`, {})).status).toBe(200);
    await h.advance(5 * H);
    expect((await h.call('POST', `${ci}/bm-p/action/start`, {})).status).toBe(200);
    await h.advance(3 * H);
    const to = Math.floor((await h.now()) / 1000) * 1000;
    const res = await h.call(
      'GET',
      `${BILLING}/instance/kind/compute/usage?range_from=${iso(from)}&range_to=${iso(to)}`,
    );
    const [row] = res.body.instance_usage_data;
    // 10 h on, 5 h off, then 3 h on (less what the whole seconds cut off at each end)
    expect(Number.parseFloat(row.usage)).toBeCloseTo(13, 1);
  });
});
