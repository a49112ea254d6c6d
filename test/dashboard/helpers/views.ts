import type { Page } from 'playwright-core';
import type { FakeControlApi } from './fake-control-api.js';

/** A view of the page and how to reach it from a signed-in page (any view before it). */
export interface View {
  readonly name: string;
  /** The screenshot test/dashboard/screenshots.test.ts writes: `docs/img/dashboard-<shot>.png`. */
  readonly shot?: string;
  open(page: Page, fake: FakeControlApi): Promise<void>;
}

async function tab(page: Page, id: string, ready: string): Promise<void> {
  await page.keyboard.press('Escape'); // a drawer left open
  await page.getByTestId(id).click();
  await page.getByTestId(ready).waitFor();
}

const graphCount = (page: Page) => page.getByTestId('graph-count').textContent();

async function settled(page: Page, read: () => Promise<string | null>): Promise<void> {
  let last = await read();
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(200);
    const now = await read();
    if (now === last && now !== 'Loading') return;
    last = now;
  }
}

/** Every view the dashboard has, in an order that reaches each from the one before. */
export const VIEWS: readonly View[] = [
  {
    name: 'overview',
    open: async (page) => {
      await tab(page, 'tab-resources', 'resource-scroll');
    },
  },
  {
    name: 'overview-sorted',
    open: async (page) => {
      // the last change, newest first: two clicks on its column title
      await page.getByTestId('sort-changed').click();
      await page.locator('[data-testid=sort-changed][data-sort=asc]').waitFor();
      await page.getByTestId('sort-changed').click();
      await page.locator('[data-testid=sort-changed][data-sort=desc]').waitFor();
      await page.getByTestId('resource-row').first().waitFor();
    },
  },
  {
    name: 'graph',
    shot: 'graph',
    open: async (page) => {
      await tab(page, 'tab-graph', 'graph-canvas');
      await settled(page, () => graphCount(page));
    },
  },
  {
    name: 'graph-project',
    shot: 'graph-project',
    open: async (page) => {
      await page.locator('[data-node^="project:"]').first().click();
      await page.locator('[data-node^="Service/"]').first().waitFor();
      await settled(page, () => graphCount(page));
    },
  },
  {
    name: 'graph-focus',
    shot: 'graph-focus',
    open: async (page) => {
      await page.locator('[data-node^="Service/"]').first().click();
      await page.getByTestId('graph-focus').waitFor();
      await settled(page, () => graphCount(page));
    },
  },
  {
    name: 'runs',
    open: async (page) => {
      await tab(page, 'tab-runs', 'runs');
    },
  },
  {
    name: 'usage',
    shot: 'usage-cost',
    open: async (page) => {
      await tab(page, 'tab-usage', 'usage');
      await page.getByTestId('fleet').waitFor();
    },
  },
  {
    name: 'resource',
    open: async (page, fake) => {
      await page.goto(`${fake.url}/resources/${encodeURIComponent(INSTANCE)}`);
      await page.getByTestId('power-actions').waitFor();
    },
  },
  {
    name: 'power-dialog',
    shot: 'power-confirm',
    open: async (page) => {
      await page.getByTestId('power-off').click();
      await page.getByRole('dialog').waitFor();
      await page.getByTestId('power-confirm').waitFor();
      // the dialog fades in: checked and shot once its transition has ended
      // (a function, not a string: the page's CSP forbids evaluating strings; no DOM types here)
      await page.waitForFunction(
        () =>
          (
            globalThis as unknown as { document: { getAnimations(): unknown[] } }
          ).document.getAnimations().length === 0,
      );
    },
  },
];

/** The compute instance whose page {@link seed} fills, with its power actions. */
const INSTANCE = 'ComputeInstance/proj-0000/ws-0/gpu-0';

/** Runs and usage for the fake, so those views show data (resources come from the caller). */
export function seed(fake: FakeControlApi): void {
  const at = Date.parse('2026-11-25T08:00:00Z');
  fake.runs = Array.from({ length: 6 }, (_, i) => ({
    runId: `run-${i}`,
    revision: `${'abcdef0'.repeat(5)}${i}`.slice(0, 40),
    trigger: i === 0 ? 'webhook' : 'interval',
    startedAt: new Date(at - i * 300_000).toISOString(),
    durationMs: 1200 + i * 130,
    result: i === 2 ? 'partial' : 'succeeded',
    counts: {
      create: i === 0 ? 3 : 0,
      update: i % 2,
      delete: 0,
      other: 0,
      failed: i === 2 ? 1 : 0,
      skipped: 0,
    },
    failures:
      i === 2 ? [{ key: 'ComputeInstance/proj-0001/ws-0/gpu-0', error: 'HTTP 409: quota' }] : [],
  }));
  const resource = fake.resources.find((r) => r.key === INSTANCE);
  if (resource) {
    fake.details.set(INSTANCE, {
      resource,
      compute: { profile: 'bmaas-h100', units: 1, gpus: 8, powerState: 'on' },
      power: { actions: ['off', 'reboot'], reasons: [] },
      diff: [],
      actions: [],
    });
  }
  fake.currency = 'USD';
  fake.days = Array.from({ length: 24 }, (_, d) => ({
    day: `2026-11-${String(d + 1).padStart(2, '0')}`,
    hours: 432 + (d % 5) * 12,
    gpuHours: (432 + (d % 5) * 12) * 8,
    cost: (432 + (d % 5) * 12) * 61.2,
  }));
  fake.usage = ['proj-0000', 'proj-0001', 'proj-0002'].flatMap((project, p) =>
    ['bmaas-h100', 'bmaas-l40s'].flatMap((profile, f) =>
      Array.from({ length: 3 }, (_, i) => ({
        project,
        profile,
        instance: `gpu-${i + 3 * f}`,
        hours: 100 + 37 * p + 11 * i,
        gpuHours: (100 + 37 * p + 11 * i) * 8,
        cost: (100 + 37 * p + 11 * i) * (f === 0 ? 98.32 : 24),
      })),
    ),
  );
}
