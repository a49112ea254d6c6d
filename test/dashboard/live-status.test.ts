import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResourceItem } from '../../web/src/api/resources.js';
import { useChromium } from './helpers/chromium.js';
import {
  counts,
  type FakeControlApi,
  startFakeControlApi,
  statusOf,
} from './helpers/fake-control-api.js';

// The status the page shows comes two ways: the event stream (at once, then each change) and
// reads (at the start, after an action). In a real Chromium against the in-memory control API,
// a read is held between the moment the API answered it and the moment the page gets it, so
// the order the two arrive in is the test's, not the machine's: e2e-pages' Drifted count read
// 0 for 30 s on a loaded CI machine when a read answered just before a run ended reached the
// page after the stream's status of that run.

const chromium = useChromium();

const KEY = 'Workspace/platform/shared-services';
const item = (condition: ResourceItem['condition']): ResourceItem => ({
  key: KEY,
  kind: 'Workspace',
  project: 'platform',
  name: 'shared-services',
  condition,
  reason: condition === 'Ready' ? 'InSync' : 'Drift',
  lastTransitionTime: '2026-11-28T10:00:00Z',
  order: 0,
  dependsOn: [],
});

/** Counts the answers to `GET /api/v1/status` the page has read (`statusReads`). */
function countStatusReads(): void {
  const w = globalThis as unknown as {
    fetch: (input: unknown, init?: unknown) => Promise<{ text(): Promise<string> }>;
    statusReads: number;
  };
  const fetch = w.fetch.bind(w);
  w.statusReads = 0;
  w.fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (String(input).startsWith('/api/v1/status')) {
      const text = res.text.bind(res);
      res.text = () =>
        text().finally(() => {
          w.statusReads++;
        });
    }
    return res;
  };
}

const statusReads = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { statusReads: number }).statusReads);

/** Two frames drawn: what the page took in a task before this one is on the screen. */
const twoFrames = (page: Page) =>
  page.evaluate(() => {
    const raf = (globalThis as unknown as { requestAnimationFrame(f: () => void): void })
      .requestAnimationFrame;
    return new Promise<void>((r) => raf(() => raf(() => r())));
  });

let fake: FakeControlApi;
let page: Page;
afterEach(async () => {
  await page?.close();
  await fake?.close();
});

const drifted = async () =>
  Number(await page.getByTestId('count-Drifted').getAttribute('data-count'));

describe("the page's status from the event stream and from reads", () => {
  it('keeps a streamed status over a read answered before it and delivered after it', async () => {
    const items = [item('Ready')];
    fake = await startFakeControlApi(chromium.bundle, {
      status: statusOf(items, { suspended: true }),
      resources: items,
    });
    fake.details.set(KEY, { resource: items[0]!, diff: [], actions: [] });
    page = await chromium.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.addInitScript(countStatusReads);
    await page.goto(`${fake.url}/resources/${encodeURIComponent(KEY)}`);
    await page.getByTestId('token-input').fill(fake.token);
    await page.getByTestId('token-submit').click();
    await page.getByTestId('resource-detail').waitFor();
    await expect.poll(() => page.getByTestId('live').textContent()).toBe('stream');

    // the reconcile button's read of the status: answered at once (nothing drifted yet) and
    // held until the test lets it through
    let answered!: () => void;
    const isAnswered = new Promise<void>((r) => {
      answered = r;
    });
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/v1/status', async (route) => {
      const response = await route.fetch();
      answered();
      await released;
      await route.fulfill({ response });
    });
    await page.getByTestId('resource-reconcile').click();
    await isAnswered;

    // the run ends meanwhile and the stream says so
    const after = [item('Drifted')];
    fake.resources = after;
    fake.details.set(KEY, { resource: after[0]!, diff: [], actions: [] });
    fake.status = { ...fake.status, counts: counts(after) };
    fake.pushStatus();
    await expect.poll(drifted).toBe(1);

    // then the read's older answer arrives, and the page has read it
    const before = await statusReads(page);
    release();
    await page.waitForFunction(
      (n) => (globalThis as unknown as { statusReads: number }).statusReads > n,
      before,
    );
    await twoFrames(page);
    expect(await drifted()).toBe(1);
    await page.unroute('**/api/v1/status');

    // a read sent after the stream's last status is taken: the stream sends changes, not
    // answers to actions (the fake streams nothing here)
    fake.status = { ...fake.status, suspended: false };
    await page.getByTestId('resource-reconcile').click();
    await page.getByTestId('suspended-badge').waitFor({ state: 'detached' });
    expect(await drifted()).toBe(1);
  });
});
