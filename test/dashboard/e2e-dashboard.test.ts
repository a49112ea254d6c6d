import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import type { ResourcePage } from '../../web/src/api/resources.js';
import type { Status } from '../../web/src/api/status.js';
import { commitFiles } from '../controller/helpers/git-remote.js';
import { launchBrowser } from '../helpers/browser.js';
import { ensureBundle } from './helpers/bundle.js';
import {
  type ControllerProcess,
  firstApply,
  SCRATCH,
  startControllerProcess,
  until,
} from './helpers/controller-process.js';

// The dashboard end to end: a real `platctl controller` process following a local bare git
// repository, the real emulator, the built page in Debian's Chromium. One controller for the
// whole file; the tests run in order and each leaves the platform converged for the next.
// PLATCTL_SCREENSHOTS=1 writes the screenshots into docs/img/ (otherwise a temp directory):
// `npm run screenshots` runs this file and screenshots.test.ts so. Each is the fixed viewport
// (1400×1100) or one card of it, never the full page, so the PNGs stay small.

const SHOTS = process.env.PLATCTL_SCREENSHOTS
  ? fileURLToPath(new URL('../../docs/img/', import.meta.url))
  : mkdtempSync(join(tmpdir(), 'platctl-shots-'));
mkdirSync(SHOTS, { recursive: true });
const WORKSPACES = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';
const SHARED = 'Workspace/platform/shared-services';

let browser: Browser;
let ctl: ControllerProcess;
let page: Page;

const status = () => ctl.control<Status>('GET', '/api/v1/status');
const row = (key: string) => page.locator(`[data-testid=resource-row][data-key="${key}"]`);
const conditionOf = (key: string) => row(key).getAttribute('data-condition');

/** Shows one resource's row: the list is virtualized, so filter it to that key first. */
async function showRow(key: string): Promise<void> {
  await page.getByTestId('resource-filter').fill(key);
  await row(key).waitFor();
}

beforeAll(async () => {
  await ensureBundle();
  browser = await launchBrowser();
  ctl = await startControllerProcess();
  // the first runs create everything (cluster add-ons wait for their cluster: a later run)
  await firstApply(ctl);
  page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await ctl?.close();
});

// each test waits on a real controller's runs (polls of up to 30 s): more than vitest's 30 s a test
describe('the dashboard against a real controller', { timeout: 120_000 }, () => {
  it('loads with the token and shows the counts and graph the controller reports', async () => {
    await page.goto(ctl.url);
    await page.screenshot({ path: join(SHOTS, 'dashboard-token.png') });
    await page.getByTestId('token-input').fill(ctl.token);
    await page.getByTestId('token-submit').click();
    await page.getByTestId('summary').waitFor();
    const s = await status();
    const all = await ctl.control<ResourcePage>('GET', '/api/v1/resources?limit=1000');
    expect(all.total).toBe(s.counts.total);
    await expect
      .poll(() => page.getByTestId('count-total').textContent())
      .toBe(`${s.counts.total} resources`);
    expect(Number(await page.getByTestId('count-Ready').getAttribute('data-count'))).toBe(
      s.counts.total,
    );
    expect(await page.getByTestId('resource-shown').textContent()).toMatch(
      new RegExp(`^${s.counts.total} shown in \\d+ projects$`),
    );
    await page.getByTestId('project-platform').waitFor();
    await page.screenshot({ path: join(SHOTS, 'dashboard-overview.png') });
    await page.getByTestId('source').screenshot({ path: join(SHOTS, 'dashboard-revisions.png') });
    // the same view in dark mode (the header's moon button)
    await page.getByTestId('color-scheme').click();
    await expect
      .poll(() => page.locator('html').getAttribute('data-mantine-color-scheme'))
      .toBe('dark');
    await page.screenshot({ path: join(SHOTS, 'dashboard-overview-dark.png') });
    await page.getByTestId('color-scheme').click();
    await expect
      .poll(() => page.locator('html').getAttribute('data-mantine-color-scheme'))
      .toBe('light');
  });

  it('shows a drift made through the emulator, and "Reconcile now" heals it', async () => {
    await page.getByTestId('suspend').click();
    await page.getByTestId('suspended-badge').waitFor();
    const drift = await ctl.api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'shared-services', project: 'platform', description: 'changed by hand' },
    });
    expect(drift.status).toBeLessThan(300);
    // suspended, the run only observes: the drift is shown, not corrected
    await page.getByTestId('reconcile').click();
    await showRow(SHARED);
    await expect.poll(() => conditionOf(SHARED), { timeout: 30_000 }).not.toBe('Ready');
    await row(SHARED).click();
    const diff = page.getByTestId('diff');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('changed by hand');
    await page.screenshot({ path: join(SHOTS, 'dashboard-resource.png') });
    await page.goBack(); // the resource's page, back to the list (its filter is in the URL)
    await row(SHARED).waitFor();

    await page.getByTestId('resume').click();
    await page.getByTestId('suspend').waitFor();
    await page.getByTestId('reconcile').click();
    await expect.poll(() => conditionOf(SHARED), { timeout: 30_000 }).toBe('Ready');
    const healed = await ctl.api('GET', `${WORKSPACES}/shared-services`);
    expect(JSON.stringify(healed.body)).not.toContain('changed by hand');
    await page.getByTestId('resource-filter').fill('');
  });

  it('holds a prune over --max-deletes until it is approved from the page', async () => {
    commitFiles(ctl.remote, { [SCRATCH]: null }, 'Drop the scratch workspaces');
    await page.getByTestId('reconcile').click();
    const alert = page.getByTestId('prune-alert');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/would delete 2 resources, more than the limit of 1/);
    for (const name of ['scratch-1', 'scratch-2']) {
      expect((await ctl.api('GET', `${WORKSPACES}/${name}`)).status).toBe(200);
    }
    await page.screenshot({ path: join(SHOTS, 'dashboard-prune.png') });
    await page.getByTestId('prune-review').click();
    expect(await page.getByTestId('prune-keys').textContent()).toBe(
      'Workspace/platform/scratch-1Workspace/platform/scratch-2',
    );
    await page.getByTestId('prune-confirm').click();
    await alert.waitFor({ state: 'detached', timeout: 30_000 });
    // both deletions run at once: wait for the pair, not for whichever ends first
    await until(
      'the approved prune',
      async () =>
        Promise.all(
          ['scratch-1', 'scratch-2'].map(
            async (name) => (await ctl.api('GET', `${WORKSPACES}/${name}`)).status,
          ),
        ),
      (codes) => codes.every((code) => code === 404),
    );
  });

  it('lists the runs and charts usage per project', async () => {
    await page.getByTestId('tab-runs').click();
    await page.getByTestId('runs').waitFor();
    expect(await page.getByTestId('run-row').count()).toBeGreaterThan(2);
    await page.screenshot({ path: join(SHOTS, 'dashboard-runs.png') });
    await page.getByTestId('run-link').first().click();
    await page.getByTestId('run-summary').waitFor();
    await page.screenshot({ path: join(SHOTS, 'dashboard-run.png') });
    await page.goBack();
    await page.getByTestId('runs').waitFor();
    const advance = await emulatorControl(ctl.emulator.url, 'POST', '/_emulator/clock/advance', {
      seconds: 6 * 3600,
    });
    expect(advance.status).toBe(200);
    await page.getByTestId('tab-usage').click();
    await page.getByTestId('usage-table').waitFor();
    const projects = await page
      .getByTestId('usage-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-project')));
    expect(projects.sort()).toEqual(['ml-research', 'platform']);
    await page.screenshot({ path: join(SHOTS, 'dashboard-usage.png') });
  });
});
