import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { launchBrowser } from '../helpers/browser.js';

// /docs as a user meets it, in headless Chromium against the real emulator, on PLATCTL_DIALECT's
// dialect (DIALECT_SUITES): the page sends the key in the headers of the dialect it serves.
const KEY = 'docs-page-key-0042';
let emulator: RunningEmulator;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: KEY });
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(`${emulator.url}/docs`);
  await page.locator('.opblock-tag').first().waitFor({ timeout: 30_000 });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await emulator?.close();
});

/** Opens one operation, clicks Try it out and Execute; resolves with the response status shown. */
async function execute(operationId: string, params: Record<string, string> = {}): Promise<string> {
  const op = page.locator(`[id$="-${operationId}"]`).first();
  await op.locator('.opblock-summary').click();
  await op.locator('button.try-out__btn').click();
  for (const [name, value] of Object.entries(params)) {
    await op.locator(`tr[data-param-name="${name}"] input`).fill(value);
  }
  await op.locator('button.execute').click();
  const status = op.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor({ timeout: 15_000 });
  return (await status.innerText()).trim();
}

describe('/docs in a browser', () => {
  it('speaks to users on its first screen, with tags written alike', async () => {
    const text = await page.locator('.information-container').innerText();
    expect(text).toContain('Authorize');
    expect(text).not.toMatch(/seed|api\/fragments|000_|\.txt/);
    const tags = await page.locator('.opblock-tag-section h3 .nostyle span').allInnerTexts();
    expect(tags.length).toBeGreaterThan(5);
    for (const tag of tags) expect(tag[0]).toBe(tag[0]!.toUpperCase());
  });

  it('asks for the key once, and that key authorizes v1 and v3 calls alike', async () => {
    await page.locator('.auth-wrapper .authorize').click();
    const boxes = page.locator(
      '.modal-ux .auth-container input[type="text"], .modal-ux .auth-container input[type="password"]',
    );
    expect(await boxes.count()).toBe(1);
    await boxes.first().fill(KEY);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();
    expect(await execute('listProjects')).toBe('200');
    expect(await execute('listClusters', { project: 'platform' })).toBe('200');
  });

  it('runs a POST with nothing typed: its path and body come filled with a working example', async () => {
    expect(await execute('upsertWorkspace')).toBe('200');
    expect(await execute('createService')).toBe('201');
  });
});
