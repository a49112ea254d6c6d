import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceItem, Status } from '../../web/src/api/types.js';
import { launchBrowser } from '../helpers/browser.js';
import { ensureBundle } from './helpers/bundle.js';
import { counts, type FakeControlApi, startFakeControlApi } from './helpers/fake-control-api.js';

// The page's views by URL (deep links, the back button, the keyboard, the colour scheme) in a
// real Chromium against the in-memory control API; page.test.ts covers the components.

let browser: Browser;
let bundle: string;
beforeAll(async () => {
  bundle = await ensureBundle();
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

const item = (name: string, condition: ResourceItem['condition'] = 'Ready'): ResourceItem => ({
  key: `ComputeInstance/ml/gpu/${name}`,
  kind: 'ComputeInstance',
  project: 'ml',
  workspace: 'gpu',
  name,
  condition,
  reason: condition === 'Ready' ? 'Applied' : 'Drift',
  lastTransitionTime: '2026-11-23T10:00:00Z',
  order: 0,
  dependsOn: [],
});

function statusOf(items: ResourceItem[]): Status {
  return {
    source: { dir: '/srv/platform' },
    role: 'leader',
    suspended: false,
    dryRun: false,
    selfHeal: true,
    revisions: {},
    sourceReady: true,
    rejected: [],
    counts: counts(items),
  };
}

let fake: FakeControlApi;
let page: Page;
afterEach(async () => {
  await page?.close();
  await fake?.close();
});

/** Opens `path` first (a link someone sent), then signs in: the page stays on that view. */
async function openAt(items: ResourceItem[], path: string): Promise<void> {
  fake = await startFakeControlApi(bundle, { status: statusOf(items), resources: items });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${fake.url}${path}`);
  await page.getByTestId('token-input').fill(fake.token);
  await page.getByTestId('token-submit').click();
  await page.getByTestId('summary').waitFor();
}

const pathname = () => new URL(page.url()).pathname + new URL(page.url()).search;

describe('the views by URL', () => {
  it('opens a deep link to a resource, links back, and the back button returns', async () => {
    const items = [item('a100-0'), item('a100-1', 'Drifted')];
    await openAt(items, '/resources/ComputeInstance%2Fml%2Fgpu%2Fa100-1');
    expect(await page.getByTestId('resource-key').textContent()).toBe(items[1]!.key);
    await page.getByTestId('tab-runs').click();
    await expect.poll(pathname).toBe('/runs');
    await page.goBack();
    await expect.poll(pathname).toBe('/resources/ComputeInstance%2Fml%2Fgpu%2Fa100-1');
    await page.getByTestId('resource-key').waitFor();
  });

  it('keeps the condition filter and the key filter in the URL', async () => {
    const items = [item('a100-0'), item('a100-1', 'Drifted'), item('a100-2', 'Drifted')];
    await openAt(items, '/?condition=Drifted');
    await expect.poll(() => page.getByTestId('resource-row').count()).toBe(2);
    await page.getByTestId('resource-filter').fill('a100-2');
    await expect.poll(pathname).toBe('/?condition=Drifted&q=a100-2');
    await expect.poll(() => page.getByTestId('resource-row').count()).toBe(1);
    await page.getByTestId('count-Drifted').click();
    await expect.poll(pathname).toBe('/?q=a100-2');
    await page.reload();
    await expect.poll(() => page.getByTestId('resource-row').count()).toBe(1);
  });

  it('says so for a path that is no view', async () => {
    await openAt([item('a100-0')], '/nowhere');
    await page.getByTestId('no-view').waitFor();
  });

  it('opens a resource from the keyboard: rows are links, Enter follows', async () => {
    const items = [item('a100-0')];
    await openAt(items, '/');
    const row = page.getByTestId('resource-row');
    await row.focus();
    await page.keyboard.press('Enter');
    await expect.poll(pathname).toBe('/resources/ComputeInstance%2Fml%2Fgpu%2Fa100-0');
  });

  it('switches to dark mode and remembers it on the next visit', async () => {
    await openAt([item('a100-0')], '/');
    const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');
    expect(await scheme()).toBe('light');
    await page.getByTestId('color-scheme').click();
    await expect.poll(scheme).toBe('dark');
    await page.reload();
    await page.getByTestId('summary').waitFor();
    expect(await scheme()).toBe('dark');
  });
});
