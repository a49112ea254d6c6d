import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { ensureBundle } from './helpers/bundle.js';
import {
  type ControllerProcess,
  firstApply,
  startControllerProcess,
} from './helpers/controller-process.js';

// The resource and run pages end to end: a real `platctl controller` process on a bare git
// repository of the examples, the real emulator, the built page in Debian's Chromium, every view
// opened by its URL. The tests run in order on one controller.

const WORKSPACES = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';
const SHARED = 'Workspace/platform/shared-services';
const L40S = 'ComputeInstance/ml-research/experiments/l40s-dev';

let browser: Browser;
let ctl: ControllerProcess;
let page: Page;

const open = (path: string) => page.goto(`${ctl.url}${path}`);
const resourcePath = (key: string) => `/resources/${encodeURIComponent(key)}`;
const condition = () => page.getByTestId('detail-condition').textContent();

beforeAll(async () => {
  await ensureBundle();
  browser = await launchBrowser();
  ctl = await startControllerProcess();
  await firstApply(ctl);
  page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
  // a link someone sent: the page asks for the token, then shows that view
  await open(resourcePath(L40S));
  await page.getByTestId('token-input').fill(ctl.token);
  await page.getByTestId('token-submit').click();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await ctl?.close();
});

// each test waits on a real controller's runs (three in the drift test, each polled up to 30 s):
// vitest's 30 s per test was too short for them on a loaded CI machine
describe('the resource and run pages against a real controller', { timeout: 120_000 }, () => {
  it("shows an instance's manifest as written, the platform's document, its power and GPUs", async () => {
    await page.getByTestId('resource-detail').waitFor();
    expect(await page.getByTestId('resource-key').textContent()).toBe(L40S);
    expect(await page.getByTestId('source-at').textContent()).toMatch(/^20-ml-research\.yaml:\d+$/);
    const desired = await page.getByTestId('desired-doc').textContent();
    expect(desired).toContain('name: l40s-dev');
    expect(desired).not.toContain('kind: Workspace'); // one document, not the file
    expect(await page.getByTestId('live-doc').textContent()).toContain('l40s-dev');
    expect(await page.getByTestId('power-state').textContent()).toBe('power off');
    expect(await page.getByTestId('gpu-count').textContent()).toBe('8 GPUs');
    expect(await page.getByTestId('detail-condition').textContent()).toBe('Ready');
  });

  it('shows a drift while suspended as Drifted, marked and worded, its repeats once', async () => {
    await ctl.control('POST', '/api/v1/suspend');
    const drift = await ctl.api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'shared-services', project: 'platform', description: 'changed by hand' },
    });
    expect(drift.status).toBeLessThan(300);
    await open(resourcePath(SHARED));
    await page.getByTestId('resource-detail').waitFor();
    await page.getByTestId('resource-reconcile').click();
    await expect.poll(condition, { timeout: 30_000 }).toBe('Drifted');
    await expect
      .poll(() => page.locator('[data-testid=live-doc] [data-changed]').allTextContents())
      .toEqual([expect.stringContaining('description: changed by hand')]);
    // the hand-made write dropped the display name too: "platform has nothing, git says ..."
    expect(await page.getByTestId('diff-words').allTextContents()).toContainEqual(
      expect.stringMatching(/^platform has changed by hand, git says .+/),
    );
    // the counts come with the status event, which may arrive after the resource's own reload
    await expect
      .poll(
        async () => Number(await page.getByTestId('count-Drifted').getAttribute('data-count')),
        {
          timeout: 30_000,
        },
      )
      .toBe(1);

    // the next run plans the same correction again: the history counts it, it does not repeat
    await page.getByTestId('resource-reconcile').click();
    await expect
      .poll(() => page.getByTestId('history-row').first().getAttribute('data-count'), {
        timeout: 30_000,
      })
      .toBe('2');
    expect(await page.getByTestId('history-row').first().textContent()).toContain('planned');

    await page.getByTestId('resume').click();
    await page.getByTestId('suspend').waitFor();
    await page.getByTestId('resource-reconcile').click();
    await expect.poll(condition, { timeout: 30_000 }).toBe('Ready');
    expect(await page.getByTestId('live-doc').textContent()).not.toContain('changed by hand');
  });

  it('opens a run from the list: its actions on a timeline, each linking its resource', async () => {
    await page.getByTestId('tab-runs').click();
    await page.getByTestId('runs').waitFor();
    // the oldest run kept: the first apply, which created everything
    await page.getByTestId('run-link').last().click();
    await page.getByTestId('run-actions').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/runs\/[0-9a-f-]{36}$/);
    expect(await page.getByTestId('run-summary').textContent()).toContain('trigger: startup');
    const started = await page.getByTestId('timeline-bar').count();
    expect(started).toBeGreaterThan(3);
    const link = page.locator(`[data-testid=run-action] a[href="${resourcePath(SHARED)}"]`);
    await link.click();
    await page.getByTestId('resource-detail').waitFor();
    expect(await page.getByTestId('resource-key').textContent()).toBe(SHARED);
  });
});
