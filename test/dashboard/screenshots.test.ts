import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import type { ResourceItem } from '../../web/src/api/types.js';
import { launchBrowser } from '../helpers/browser.js';
import { ensureBundle } from './helpers/bundle.js';
import { counts, startFakeControlApi } from './helpers/fake-control-api.js';
import { signIn, statusFor } from './helpers/sign-in.js';
import { syntheticConditions } from './helpers/synthetic.js';
import { seed, VIEWS } from './helpers/views.js';

// The script that refreshes the screenshots of the graph and usage views in docs/img/:
//   PLATCTL_SCREENSHOTS=1 PLATCTL_TEST_ALL=1 npx vitest run test/dashboard/screenshots.test.ts
// (the other views' screenshots come from the real controller: e2e-dashboard.test.ts and
// e2e-pages.test.ts with PLATCTL_SCREENSHOTS=1). 2,000 synthetic resources in 20 projects.

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
        if (view.shot)
          await page.screenshot({ path: join(IMG, `dashboard-${view.shot}.png`), fullPage: true });
      }
    } finally {
      await browser.close();
      await fake.close();
    }
  });
});
