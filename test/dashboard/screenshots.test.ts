import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import type { ResourceItem } from '../../web/src/api/resources.js';
import { launchBrowser } from '../helpers/browser.js';
import { ensureBundle } from './helpers/bundle.js';
import { counts, startFakeControlApi } from './helpers/fake-control-api.js';
import { signIn, statusFor } from './helpers/sign-in.js';
import { syntheticConditions } from './helpers/synthetic.js';
import { seed, VIEWS } from './helpers/views.js';

// The screenshots of the graph and usage views in docs/img/, over 2,000 synthetic resources in
// 20 projects; the other views' come from the real controller (e2e-dashboard.test.ts).
// `npm run screenshots` refreshes them all (PLATCTL_SCREENSHOTS=1, both files). Each is the
// fixed viewport (1400×1100), never the full page, so the PNGs stay small.

const IMG = fileURLToPath(new URL('../../docs/img/', import.meta.url));
const shots = process.env.PLATCTL_SCREENSHOTS === '1';

describe.skipIf(!shots)('screenshots of the views', () => {
  it('writes docs/img/dashboard-<view>.png for each view', { timeout: 300_000 }, async () => {
    mkdirSync(IMG, { recursive: true });
    const bundle = await ensureBundle();
    const browser = await launchBrowser();
    const items = syntheticConditions(2_000) as unknown as ResourceItem[];
    const fake = await startFakeControlApi(bundle, {
      status: statusFor(counts(items)),
      resources: items,
    });
    seed(fake);
    try {
      const page = await signIn(browser, fake, { width: 1400, height: 1100 });
      for (const view of VIEWS) {
        await view.open(page, fake);
        if (view.shot) await page.screenshot({ path: join(IMG, `dashboard-${view.shot}.png`) });
        if (view.shot === 'usage-cost') {
          // the fleet below the usage: its card alone
          await page.getByTestId('fleet-row').first().waitFor();
          await page.getByTestId('fleet').screenshot({ path: join(IMG, 'dashboard-fleet.png') });
        }
        if (view.shot === 'graph-project') {
          // the graph in dark mode too (the header's moon button), then back to light
          await page.getByTestId('color-scheme').click();
          await page.locator('html[data-mantine-color-scheme=dark]').waitFor();
          await page.screenshot({ path: join(IMG, 'dashboard-graph-dark.png') });
          await page.getByTestId('color-scheme').click();
          await page.locator('html[data-mantine-color-scheme=light]').waitFor();
        }
      }
    } finally {
      await browser.close();
      await fake.close();
    }
  });
});
