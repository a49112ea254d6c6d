import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourcePage } from '../../web/src/api/resources.js';
import type { Status } from '../../web/src/api/status.js';
import { launchBrowser } from '../helpers/browser.js';
import { ensureBundle } from './helpers/bundle.js';
import {
  type ControllerProcess,
  firstApply,
  startControllerProcess,
} from './helpers/controller-process.js';

// The resource list paged by a real controller: the examples plus 300 workspaces, more than the
// page's first read (200), so the rest is read only as the list scrolls to it.

const BULK = Array.from({ length: 300 }, (_, i) =>
  [
    'apiVersion: paas.envmgmt.io/v1',
    'kind: Workspace',
    'metadata:',
    `  name: bulk-${String(i).padStart(3, '0')}`,
    '  project: platform',
    '',
  ].join('\n'),
).join('---\n');

let browser: Browser;
let ctl: ControllerProcess;
let page: Page;
/** The query of every resource list request the page made, in order. */
const asked: URLSearchParams[] = [];

beforeAll(async () => {
  await ensureBundle();
  browser = await launchBrowser();
  ctl = await startControllerProcess({ files: { 'platform/60-bulk.yaml': BULK } });
  await firstApply(ctl, 300, 120_000);
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname === '/api/v1/resources') asked.push(url.searchParams);
  });
  await page.goto(ctl.url);
  await page.getByTestId('token-input').fill(ctl.token);
  await page.getByTestId('token-submit').click();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await ctl?.close();
});

// each test waits on a real controller's runs (polls of up to 30 s): more than vitest's 30 s a test
describe('the resource list against a real controller', { timeout: 120_000 }, () => {
  it('answers a filtered page on the server, with its total and its projects', async () => {
    const answer = await ctl.control<ResourcePage>(
      'GET',
      '/api/v1/resources?view=tree&groups=1&q=BULK-29&limit=5',
    );
    expect(answer.total).toBe(10); // bulk-290 … bulk-299
    expect(answer.items.map((i) => [i.key, i.depth])).toEqual(
      Array.from({ length: 5 }, (_, i) => [`Workspace/platform/bulk-29${i}`, 1]),
    );
    expect(answer.groups).toEqual([{ project: 'platform', total: 10, counts: { Ready: 10 } }]);
  });

  it('draws the first page at once and reads further pages only as the list scrolls', async () => {
    const { counts } = await ctl.control<Status>('GET', '/api/v1/status');
    await page.getByTestId('resource-row').first().waitFor();
    await expect
      .poll(() => page.getByTestId('resource-shown').textContent())
      .toMatch(new RegExp(`^${counts.total} shown in \\d+ projects$`));
    // one request answered the first rows and the projects' counts; nothing past it was read
    expect(asked[0]?.get('view')).toBe('tree');
    expect(asked[0]?.get('groups')).toBe('1');
    expect(asked.every((q) => Number(q.get('offset')) < 200)).toBe(true);
    const last = page.locator('[data-key="Workspace/platform/bulk-299"]');
    expect(await last.count()).toBe(0);

    await page.getByTestId('resource-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await last.waitFor();
    expect(asked.some((q) => q.get('offset') === '200' && q.get('groups') === null)).toBe(true);
  });

  it('sends the key filter to the server and keeps it in the URL', async () => {
    await page.getByTestId('resource-filter').fill('bulk-29');
    await expect
      .poll(() => page.getByTestId('resource-shown').textContent())
      .toBe('10 shown in 1 projects');
    expect(asked.at(-1)?.get('q')).toBe('bulk-29');
    expect(new URL(page.url()).searchParams.get('q')).toBe('bulk-29');
    await page.reload();
    await expect.poll(() => page.getByTestId('resource-row').count()).toBe(10);
  });

  it('sorts on the server by a column title, both ways, and keeps the order in the URL', async () => {
    // the key filter of the test before is still in the URL: bulk-290 … bulk-299
    const keys = () =>
      page
        .getByTestId('resource-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
    const bulk = (n: number) => `Workspace/platform/bulk-29${n}`;
    await expect.poll(keys).toEqual(Array.from({ length: 10 }, (_, i) => bulk(i)));
    await page.getByTestId('sort-name').click();
    await expect.poll(() => page.getByTestId('sort-name').getAttribute('data-sort')).toBe('asc');
    await page.getByTestId('sort-name').click();
    await expect.poll(keys).toEqual(Array.from({ length: 10 }, (_, i) => bulk(9 - i)));
    expect(await page.getByTestId('sort-name').getAttribute('data-sort')).toBe('desc');
    expect(asked.at(-1)?.get('sort')).toBe('-name');
    const url = new URL(page.url());
    expect([url.searchParams.get('sort'), url.searchParams.get('q')]).toEqual(['-name', 'bulk-29']);
    // a deep link: the same list after a reload
    await page.reload();
    await expect.poll(keys).toEqual(Array.from({ length: 10 }, (_, i) => bulk(9 - i)));
    // a third click: the engine's order again, and no sort in the URL
    await page.getByTestId('sort-name').click();
    await expect.poll(keys).toEqual(Array.from({ length: 10 }, (_, i) => bulk(i)));
    expect(new URL(page.url()).searchParams.has('sort')).toBe(false);
    // the server's sort over the whole list: the last change, newest first, inside each project
    const all = await ctl.control<ResourcePage>(
      'GET',
      '/api/v1/resources?view=tree&groups=1&sort=-changed&limit=1000',
    );
    expect(all.items.every((i) => i.depth === 1)).toBe(true);
    for (const [i, item] of all.items.entries()) {
      const prev = all.items[i - 1];
      if (prev && prev.project === item.project) {
        expect(prev.lastTransitionTime >= item.lastTransitionTime).toBe(true);
      }
    }
  });

  it('keeps the rows shown until the answer comes, and aborts a request a newer key superseded', async () => {
    const rows = () => page.getByTestId('resource-row').count();
    await page.getByTestId('resource-filter').fill('');
    await expect.poll(rows).toBeGreaterThan(10);
    const failed: string[] = [];
    page.on('requestfailed', (req) => {
      const q = new URL(req.url()).searchParams.get('q');
      failed.push(`${q} ${req.failure()?.errorText}`);
    });
    // the answer to "bulk-1" is held until released: a slow server, deterministically
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const slow = (url: URL) =>
      url.pathname === '/api/v1/resources' && url.searchParams.get('q') === 'bulk-1';
    await page.route(slow, async (route) => {
      await held;
      await route.continue().catch(() => {}); // aborted by the page meanwhile
    });
    try {
      await page.getByTestId('resource-filter').fill('bulk-1');
      await expect.poll(() => asked.at(-1)?.get('q')).toBe('bulk-1');
      // its answer is on its way: the rows of the list before it stay, none turned to "…"
      expect(await rows()).toBeGreaterThan(10);
      expect(await page.getByTestId('resource-loading').count()).toBe(0);
      await page.getByTestId('resource-filter').fill('bulk-15');
      await expect
        .poll(() => page.getByTestId('resource-shown').textContent())
        .toBe('10 shown in 1 projects');
      await expect.poll(() => failed).toContain('bulk-1 net::ERR_ABORTED');
      // a page of the list before it that was still on its way is superseded too (on a loaded
      // machine: `null net::ERR_ABORTED`); the answer to the newest key never is
      expect(
        failed.filter((f) => !f.endsWith(' net::ERR_ABORTED') || f.startsWith('bulk-15 ')),
      ).toEqual([]);
    } finally {
      release();
      await page.unroute(slow);
    }
  });

  it('answers a sort it does not know with a 400 that names the ones it does', async () => {
    const res = await fetch(`${ctl.url}/api/v1/resources?view=tree&sort=age`, {
      headers: { authorization: `Bearer ${ctl.token}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error:
        'sort must be one of name, kind, condition, project, changed, with - before it for descending (got "age")',
    });
  });
});
