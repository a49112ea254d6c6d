import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceItem } from '../../web/src/api/resources.js';
import { launchBrowser } from '../helpers/browser.js';
import { ensureBundle } from './helpers/bundle.js';
import { counts, type FakeControlApi, startFakeControlApi } from './helpers/fake-control-api.js';
import { signIn, statusFor } from './helpers/sign-in.js';
import { syntheticConditions } from './helpers/synthetic.js';
import { seed, VIEWS } from './helpers/views.js';

// axe-core on every view of the page: no serious or critical violation of WCAG 2.x A/AA.

let browser: Browser;
let fake: FakeControlApi;
let page: Page;
beforeAll(async () => {
  const bundle = await ensureBundle();
  browser = await launchBrowser();
  const items = syntheticConditions(200) as unknown as ResourceItem[];
  fake = await startFakeControlApi(bundle, { status: statusFor(counts(items)), resources: items });
  seed(fake);
  page = await signIn(browser, fake);
}, 180_000);
afterAll(async () => {
  await page?.close();
  await fake?.close();
  await browser?.close();
});

async function violations(target: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page: target })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .map((n) => `${n.target.join(' ')} ${n.failureSummary}`)
          .slice(0, 3)
          .join(', ')}`,
    );
}

describe('accessibility', { timeout: 120_000 }, () => {
  it('the token gate has no serious or critical violation', async () => {
    const gate = await (await browser.newContext()).newPage();
    await gate.goto(fake.url);
    await gate.getByTestId('token-input').waitFor();
    expect(await violations(gate)).toEqual([]);
    await gate.close();
  });

  for (const view of VIEWS) {
    it(`${view.name} has no serious or critical violation`, async () => {
      await view.open(page, fake);
      expect(await violations(page)).toEqual([]);
    });
  }
});
