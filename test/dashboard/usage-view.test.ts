import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResourceItem } from '../../web/src/api/resources.js';
import { useChromium } from './helpers/chromium.js';
import { counts, type FakeControlApi, startFakeControlApi } from './helpers/fake-control-api.js';
import { signIn, statusFor } from './helpers/sign-in.js';
import { syntheticConditions } from './helpers/synthetic.js';
import { seed } from './helpers/views.js';

// The usage and cost view and the fleet in Chromium against the fake control API.

const WAIT = { timeout: 10_000 };
let fake: FakeControlApi;
let page: Page;
const items = syntheticConditions(1_000) as unknown as ResourceItem[];
const chromium = useChromium();
afterEach(async () => {
  await page?.close();
  await fake?.close();
});

const rows = () =>
  page.getByTestId('usage-group-row').evaluateAll((els) => els.map((e) => e.textContent));

describe('usage and cost', { timeout: 120_000 }, () => {
  it('reads the range asked, sums by project, profile or instance with cost', async () => {
    fake = await startFakeControlApi(chromium.bundle, {
      status: statusFor(counts(items)),
      resources: items,
    });
    seed(fake);
    page = await signIn(chromium.browser, fake);
    await page.getByTestId('tab-usage').click();
    await page.getByTestId('usage-by').waitFor();
    // the month so far, whole days
    const first = fake.requests.find((r) => r.line.startsWith('GET /api/v1/usage?'))!.line;
    expect(first).toMatch(/from=\d{4}-\d{2}-01T00%3A00%3A00.000Z&to=/);
    expect(await rows()).toHaveLength(3);
    // proj-0002: (174+185+196) h at 98.32 and the same hours at 24
    expect((await rows())[0]).toBe('proj-00021110.008880.0067,887.60 USD');
    await page
      .getByRole('radio', { name: 'profile' })
      .evaluate((el) => (el as unknown as { click(): void }).click());
    await expect
      .poll(rows, WAIT)
      .toEqual([expect.stringMatching(/^bmaas-h100/), expect.stringMatching(/^bmaas-l40s/)]);
    await page
      .getByRole('radio', { name: 'instance' })
      .evaluate((el) => (el as unknown as { click(): void }).click());
    await expect.poll(async () => (await rows()).length, WAIT).toBe(18);
    expect(await page.getByTestId('usage-totals').textContent()).toMatch(/USD$/);
    await page.getByTestId('usage-from').fill('2026-11-03');
    await page.getByTestId('usage-to').fill('2026-11-04');
    await expect
      .poll(
        () =>
          fake.requests
            .map((r) => r.line)
            .filter((l) => l.startsWith('GET /api/v1/usage/daily?'))
            .at(-1),
        WAIT,
      )
      .toBe(
        'GET /api/v1/usage/daily?from=2026-11-03T00%3A00%3A00.000Z&to=2026-11-05T00%3A00%3A00.000Z',
      );
  });

  it('lists the fleet a page at a time, filters by power, marks idle instances', async () => {
    fake = await startFakeControlApi(chromium.bundle, {
      status: statusFor(counts(items)),
      resources: items,
    });
    seed(fake);
    page = await signIn(chromium.browser, fake);
    await page.getByTestId('tab-usage').click();
    await page.getByTestId('fleet').waitFor();
    const instances = items.filter((i) => i.kind === 'ComputeInstance').length;
    expect(await page.getByTestId('fleet-row').count()).toBe(50);
    expect(await page.getByTestId('fleet').textContent()).toMatch(/Fleet: \d+ on, \d+ off/);
    // usage names gpu-0..5 of proj-0000..2 only: the rest of the instances on are idle
    expect(await page.getByTestId('fleet-idle').count()).toBeGreaterThan(0);
    // the first instance's schedule and its next transition; the others have none
    const rows = page.getByTestId('fleet-row');
    expect(await rows.first().getByTestId('schedule').textContent()).toMatch(
      /^office-hours\s*on\s*off in 3 h \(\d{4}-\d\d-\d\dT\d\d:\d\d\+00:00\)$/,
    );
    expect(await rows.nth(1).getByTestId('schedule').count()).toBe(0);
    await page
      .getByRole('radio', { name: 'off' })
      .evaluate((el) => (el as unknown as { click(): void }).click());
    // the filtered page can hold 50 rows as the unfiltered one did: wait for the request, then
    // for rows that all say off
    await expect
      .poll(() => fake.requests.some((r) => r.line.includes('/api/v1/fleet?power=off')), WAIT)
      .toBe(true);
    const powers = () =>
      page
        .getByTestId('fleet-row')
        .evaluateAll((els) => els.map((e) => e.children[3]?.textContent ?? ''));
    await expect
      .poll(powers, WAIT)
      .toEqual(Array(Math.min(50, Math.ceil((instances - 3) / 7))).fill('off'));
  });
});
