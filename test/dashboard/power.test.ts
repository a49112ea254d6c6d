import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { PowerOffer, ResourceItem } from '../../web/src/api/resources.js';
import { useChromium } from './helpers/chromium.js';
import { type FakeControlApi, startFakeControlApi } from './helpers/fake-control-api.js';
import { signIn, statusFor } from './helpers/sign-in.js';

// A compute instance's power buttons in Chromium, against the in-memory control API: only the
// actions the API offers (what git allows now), each sent as a POST with the token, power off and
// reboot only once confirmed in a dialog naming the instance, and why the others are absent said
// beside them.

let fake: FakeControlApi;
let page: Page;
const chromium = useChromium();
afterEach(async () => {
  await page?.close();
  await fake?.close();
});

const KEY = 'ComputeInstance/ml/gpu/h100-0';
const item: ResourceItem = {
  key: KEY,
  kind: 'ComputeInstance',
  project: 'ml',
  workspace: 'gpu',
  name: 'h100-0',
  condition: 'Ready',
  reason: 'InSync',
  lastTransitionTime: '2026-11-25T08:00:00Z',
  order: 0,
  dependsOn: [],
};

async function openWith(power: PowerOffer, state: 'on' | 'off'): Promise<void> {
  const counts = { Ready: 1, Progressing: 0, Degraded: 0, Drifted: 0, Suspended: 0, Orphaned: 0 };
  fake = await startFakeControlApi(chromium.bundle, {
    status: statusFor({ ...counts, total: 1 }),
    resources: [item],
  });
  fake.details.set(KEY, {
    resource: item,
    compute: { profile: 'bmaas-h100', units: 1, gpus: 8, powerState: state },
    power,
    diff: [],
    actions: [],
  });
  page = await signIn(chromium.browser, fake);
  await page.goto(`${fake.url}/resources/${encodeURIComponent(KEY)}`);
  await page.getByTestId('power-actions').waitFor();
}

describe("a compute instance's power actions", { timeout: 120_000 }, () => {
  it('offers what git allows and sends it through the control API with the token', async () => {
    await openWith({ actions: ['off', 'reboot'], reasons: [] }, 'on');
    expect(await page.getByTestId('power-on').count()).toBe(0);
    expect(await page.getByTestId('power-reason').count()).toBe(0);
    await page.getByTestId('power-off').click();
    await page.getByTestId('power-confirm').click();
    await expect
      .poll(() => page.getByTestId('power-note').textContent())
      .toBe('power off requested: the controller runs now and keeps it off');
    expect(fake.powerAsked).toEqual([{ key: KEY, action: 'off' }]);
    const post = fake.requests.find((r) => r.line.endsWith('/power'));
    expect(post).toEqual({
      line: `POST /api/v1/resources/${encodeURIComponent(KEY)}/power`,
      authorized: true,
    });
    await page.getByTestId('power-reboot').click();
    await page.getByTestId('power-confirm').click();
    await expect.poll(() => fake.powerAsked.map((a) => a.action)).toEqual(['off', 'reboot']);
  });

  it('asks before powering off or rebooting, in a dialog naming the instance; cancel sends nothing', async () => {
    await openWith({ actions: ['off', 'reboot'], reasons: [] }, 'on');
    for (const [verb, label] of [
      ['off', 'Power off'],
      ['reboot', 'Reboot'],
    ] as const) {
      await page.getByTestId(`power-${verb}`).click();
      const dialog = page.getByRole('dialog', { name: `${label} ${KEY}?` });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(KEY);
      await page.getByTestId('power-cancel').click();
      await dialog.waitFor({ state: 'hidden' });
      // Escape closes it too, and sends nothing either
      await page.getByTestId(`power-${verb}`).click();
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    expect(fake.powerAsked).toEqual([]);
    expect(fake.requests.some((r) => r.line.endsWith('/power'))).toBe(false);
    await page.getByTestId('power-reboot').click();
    await page
      .getByRole('dialog', { name: `Reboot ${KEY}?` })
      .getByTestId('power-confirm')
      .click();
    await expect.poll(() => fake.powerAsked).toEqual([{ key: KEY, action: 'reboot' }]);
  });

  it('powers on without asking: nothing is cut off', async () => {
    await openWith({ actions: ['on'], reasons: [] }, 'off');
    await page.getByTestId('power-on').click();
    await expect.poll(() => fake.powerAsked).toEqual([{ key: KEY, action: 'on' }]);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('shows no button where git pins the power state, and says why', async () => {
    const why = 'git pins its power state: platctl.io/power-state: "off" at gpu.yaml:12';
    await openWith({ actions: [], reasons: [why] }, 'off');
    expect(await page.getByTestId('power-on').count()).toBe(0);
    expect(await page.getByTestId('power-reason').textContent()).toBe(`No power actions: ${why}`);
  });
});
