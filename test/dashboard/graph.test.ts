import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceItem } from '../../web/src/api/resources.js';
import { launchBrowser } from '../helpers/browser.js';
import { ensureBundle } from './helpers/bundle.js';
import { counts, type FakeControlApi, startFakeControlApi } from './helpers/fake-control-api.js';
import { signIn, statusFor } from './helpers/sign-in.js';
import { syntheticConditions } from './helpers/synthetic.js';

// The dependency graph in Chromium against the fake control API, which answers with the
// controller's own graph and filter functions: 10,000 resources in 100 projects.

/** The graph is read after a debounce, from a server on the same busy two cores. */
const WAIT = { timeout: 10_000 };
let browser: Browser;
let bundle: string;
let fake: FakeControlApi;
let page: Page;
const items = syntheticConditions(10_000) as unknown as ResourceItem[];
const projects = new Set(items.map((i) => i.project ?? i.key)).size;
beforeAll(async () => {
  bundle = await ensureBundle();
  browser = await launchBrowser();
}, 180_000);
afterEach(async () => {
  await page?.close();
  await fake?.close();
});
afterAll(async () => {
  await browser?.close();
});

const shown = () =>
  page.getByTestId('graph-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-node')));

describe('the dependency graph', { timeout: 120_000 }, () => {
  it('starts with one node per project, opens a project, then a workspace', async () => {
    fake = await startFakeControlApi(bundle, {
      status: statusFor(counts(items)),
      resources: items,
    });
    page = await signIn(browser, fake);
    await page.getByTestId('tab-graph').click();
    await expect
      .poll(() => page.getByTestId('graph-count').textContent(), WAIT)
      .toBe(`10000 resources, ${projects} nodes`);
    await page.locator('[data-node="project:proj-0000"]').click();
    await page.locator('[data-node="Service/proj-0000/vpc"]').waitFor();
    const opened = await shown();
    expect(opened).toContain('workspace:proj-0000/ws-3');
    expect(opened).not.toContain('ComputeInstance/proj-0000/ws-3/gpu-0');
    await page.locator('[data-node="workspace:proj-0000/ws-3"]').click();
    await page.locator('[data-node="ComputeInstance/proj-0000/ws-3/gpu-0"]').waitFor();
    // an edge from the workspace to each of its instances is drawn
    const edges = await page.locator('.react-flow__edge').count();
    expect(edges).toBeGreaterThanOrEqual(9);
  });

  it('focuses on a resource: what it waits for and what waits for it', async () => {
    fake = await startFakeControlApi(bundle, {
      status: statusFor(counts(items)),
      resources: items,
    });
    page = await signIn(browser, fake);
    await page.getByTestId('tab-graph').click();
    await page.getByTestId('graph-search').fill('proj-0042/ws-1/gpu-2');
    await expect
      .poll(() => page.getByTestId('graph-count').textContent(), WAIT)
      .toBe('1 resources, 1 nodes');
    await page.locator('[data-node="ComputeInstance/proj-0042/ws-1/gpu-2"]').click();
    await expect
      .poll(() => page.getByTestId('graph-focus').textContent(), WAIT)
      .toContain('ComputeInstance/proj-0042/ws-1/gpu-2');
    await expect
      .poll(shown, WAIT)
      .toEqual(
        expect.arrayContaining([
          'Service/proj-0042/vpc',
          'Workspace/proj-0042/ws-1',
          'ComputeInstance/proj-0042/ws-1/gpu-2',
        ]),
      );
    expect(await shown()).toHaveLength(3);
    // the focus is in the URL: a reload shows it again, and back returns to the search
    expect(new URL(page.url()).searchParams.get('focus')).toBe(
      'ComputeInstance/proj-0042/ws-1/gpu-2',
    );
    await page.reload();
    await expect
      .poll(() => page.getByTestId('graph-focus').textContent(), WAIT)
      .toContain('ComputeInstance/proj-0042/ws-1/gpu-2');
    await page.goBack();
    await expect
      .poll(() => page.getByTestId('graph-count').textContent(), WAIT)
      .toBe('1 resources, 1 nodes');
    await page.goForward();
    await expect.poll(shown, WAIT).toHaveLength(3);
    await page
      .getByRole('radio', { name: '2' })
      .evaluate((el) => (el as unknown as { click(): void }).click());
    // two steps: the VPC's other instances and the workspace's
    await expect
      .poll(
        async () => Number((await page.getByTestId('graph-count').textContent())?.split(' ')[0]),
        WAIT,
      )
      .toBeGreaterThan(50);
    // every node is in view (fitted), so drawn
    const count = Number((await page.getByTestId('graph-count').textContent())?.split(' ')[0]);
    await expect.poll(async () => (await shown()).length, WAIT).toBe(count);
  });

  it('colours by condition and filters by the condition in the URL', async () => {
    fake = await startFakeControlApi(bundle, {
      status: statusFor(counts(items)),
      resources: items,
    });
    page = await signIn(browser, fake);
    // the condition is the URL's, as the resources' filter is
    await page.goto(`${fake.url}/graph?condition=Degraded`);
    const degraded = items.filter((i) => i.condition === 'Degraded');
    // a workspace: drawn in its opened project (an instance would be in its collapsed workspace)
    const one = degraded.find((i) => i.kind === 'Workspace')!;
    await expect
      .poll(() => page.getByTestId('graph-count').textContent(), WAIT)
      .toMatch(new RegExp(`^${degraded.length} resources`));
    await page.locator(`[data-node="project:${one.project}"]`).click();
    await page.locator(`[data-node="${one.key}"]`).waitFor();
    expect(await page.locator(`[data-node="${one.key}"]`).getAttribute('data-condition')).toBe(
      'Degraded',
    );
    // the project holds no resource of another condition
    expect(
      await page
        .getByTestId('graph-node')
        .evaluateAll((els) =>
          els
            .map((e) => e.getAttribute('data-condition'))
            .filter((c) => c !== '' && c !== 'Degraded'),
        ),
    ).toEqual([]);
  });

  it('fits each drawing to the view: a wider focus is zoomed out to show every node', async () => {
    fake = await startFakeControlApi(bundle, {
      status: statusFor(counts(items)),
      resources: items,
    });
    page = await signIn(browser, fake);
    await page.goto(`${fake.url}/graph?focus=ComputeInstance/proj-0042/ws-1/gpu-2`);
    await expect.poll(shown, WAIT).toHaveLength(3);
    const width = async (key: string) =>
      (await page.locator(`[data-node="${key}"]`).boundingBox())?.width ?? 0;
    // three nodes: at the largest zoom the view allows (1)
    expect(await width('Service/proj-0042/vpc')).toBeGreaterThan(200);
    // three steps: the project's other instances too, drawn by the same flow, fitted again
    await page
      .getByRole('radio', { name: '3' })
      .evaluate((el) => (el as unknown as { click(): void }).click());
    await expect
      .poll(
        async () => Number((await page.getByTestId('graph-count').textContent())?.split(' ')[0]),
        WAIT,
      )
      .toBeGreaterThan(50);
    await expect.poll(() => width('Service/proj-0042/vpc'), WAIT).toBeLessThan(150);
    const canvas = (await page.getByTestId('graph-canvas').boundingBox())!;
    const drawn = await shown();
    expect(drawn.length).toBeGreaterThan(50);
    for (const key of drawn) {
      const r = (await page.locator(`[data-node="${key}"]`).boundingBox())!;
      expect(r.x).toBeGreaterThanOrEqual(canvas.x);
      expect(r.y).toBeGreaterThanOrEqual(canvas.y);
      expect(r.x + r.width).toBeLessThanOrEqual(canvas.x + canvas.width);
      expect(r.y + r.height).toBeLessThanOrEqual(canvas.y + canvas.height);
    }
  });
});
