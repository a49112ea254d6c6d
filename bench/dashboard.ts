/**
 * Dashboard benchmark: `npx tsx bench/dashboard.ts [--sizes 10000,100000] [--runs 5] [--bundle DIR]`.
 *
 * The built page (`npm run build:web`) in Debian's Chromium against the in-memory control API
 * of the browser tests, which answers with the controller's own paging, filter and graph
 * functions (src/controller/http/control-queries.ts, graph-view.ts) over N synthetic resources
 * in projects of about 100. Measures, as medians of `--runs`:
 *
 * - first paint: navigation (token already in the tab) to the summary counts shown, and to the
 *   resource list showing its first rows;
 * - graph (once the page has read the resource list and is quiet; bench/dashboard-page.ts): the
 *   Graph tab to its collapsed projects drawn; opening a project; focusing on a
 *   resource's neighbourhood (to its own answer drawn); a search typed into the graph, each
 *   measured in the page from the click or the input event to the frame with the answer drawn
 *   (the search's 150 ms debounce excluded);
 * - resource list: a filter typed, from its input event to the frame with the filtered rows,
 *   measured in the page (and, as first recorded, through Playwright's `fill`, whose checks and
 *   round trips to the browser it includes), and a scroll of 5,000 px to the rows painted;
 * - the control API's own time for the graph and a filtered page (in Node, no browser).
 *
 * Targets (issues 26, 27): first paint ≤ 2 s, each interaction ≤ 100 ms.
 */

import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { graphQuery, resourcePage, resourceQuery } from '../src/controller/http/control-queries.js';
import { graphView } from '../src/controller/http/graph-view.js';
import { ensureBundle } from '../test/dashboard/helpers/bundle.js';
import { counts, startFakeControlApi } from '../test/dashboard/helpers/fake-control-api.js';
import { statusFor } from '../test/dashboard/helpers/sign-in.js';
import { syntheticConditions } from '../test/dashboard/helpers/synthetic.js';
import { launchBrowser } from '../test/helpers/browser.js';
import type { ResourceItem } from '../web/src/api/resources.js';
import {
  benchPage,
  clickedInPage,
  drawnProject,
  listQuiet,
  typedInPage,
} from './dashboard-page.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    runs: { type: 'string', default: '5' },
    /** A page built elsewhere (another commit's `vite build --outDir DIR`), to compare. */
    bundle: { type: 'string' },
  },
});
const runs = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${n.toFixed(0)} ms`;

/**
 * Milliseconds until `done` holds in the page, polled each animation frame; NaN (printed, the
 * other figures kept) when it does not within a minute.
 */
async function until(page: Page, act: () => Promise<void>, done: string): Promise<number> {
  const t0 = performance.now();
  try {
    await act();
    await page.waitForFunction(done, undefined, { polling: 'raf', timeout: 60_000 });
    return performance.now() - t0;
  } catch (err) {
    console.error(`not measured: ${String(err).split('\n')[0]}`);
    return Number.NaN;
  }
}

const countText = `document.querySelector('[data-testid=graph-count]')?.textContent`;

async function measure(size: number): Promise<void> {
  const items = syntheticConditions(size) as unknown as ResourceItem[];
  // the server's own share, in Node
  const api = (f: () => unknown) => {
    const t: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      f();
      t.push(performance.now() - t0);
    }
    return median(t);
  };
  const conditions = items as never;
  const serverGraph = api(() =>
    graphView(conditions, graphQuery(new URLSearchParams('')) as never),
  );
  const serverFocus = api(() =>
    graphView(conditions, graphQuery(new URLSearchParams('focus=Service/proj-0003/vpc')) as never),
  );
  // a sorted first page as the list asks it, on a fresh copy each time: the list's index and
  // its cache of matches are kept per conditions array, so a copy measures a first sort
  const serverSorted = api(() =>
    resourcePage(
      [...(conditions as unknown[])] as never,
      resourceQuery(new URLSearchParams('view=tree&groups=1&sort=-changed&limit=200')) as never,
    ),
  );
  const serverPage = api(() =>
    resourcePage(conditions, resourceQuery(new URLSearchParams('q=ws-3/gpu-2&limit=500')) as never),
  );
  const bundle = values.bundle ?? (await ensureBundle());
  const fake = await startFakeControlApi(bundle, {
    status: statusFor(counts(items)),
    resources: items,
  });
  const browser = await launchBrowser();
  const t = {
    summary: [] as number[],
    list: [] as number[],
    graph: [] as number[],
    open: [] as number[],
    focus: [] as number[],
    search: [] as number[],
    filter: [] as number[],
    filterFill: [] as number[],
    filterQuiet: [] as number[],
    scroll: [] as number[],
  };
  try {
    for (let r = 0; r < runs; r++) {
      const page = await benchPage(browser, fake);
      const context = page.context();
      const t0 = performance.now();
      await page.goto(fake.url);
      await page.getByTestId('count-total').waitFor();
      t.summary.push(performance.now() - t0);
      await page.getByTestId('resource-row').first().waitFor({ timeout: 120_000 });
      t.list.push(performance.now() - t0);
      const few = `document.querySelectorAll('[data-testid=resource-row]').length <= 3`;
      const many = `document.querySelectorAll('[data-testid=resource-row]').length > 10`;
      // the filter as Playwright types it (its checks and round trips included), as first recorded
      t.filterFill.push(
        await until(
          page,
          () => page.getByTestId('resource-filter').fill('proj-0007/ws-3/gpu-2'),
          few,
        ),
      );
      await page.getByTestId('resource-filter').fill('');
      await page.waitForFunction(many);
      // in the page: from the input event to the frame with the filtered rows, right after the
      // first rows (the page still reading what it shows first), then once the list is quiet
      t.filter.push(await typedInPage(page, 'resource-filter', 'proj-0006/ws-3/gpu-2', few));
      await typedInPage(page, 'resource-filter', '', many);
      await listQuiet(page);
      t.filterQuiet.push(await typedInPage(page, 'resource-filter', 'proj-0005/ws-3/gpu-2', few));
      await typedInPage(page, 'resource-filter', '', many);
      // in the page: scroll, then two frames (the virtualizer's rows painted)
      t.scroll.push(
        (await page.evaluate(`(async () => {
          const el = document.querySelector('[data-testid=resource-scroll]');
          const start = performance.now();
          el.scrollTop += 5000;
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
          return performance.now() - start;
        })()`)) as number,
      );
      // the graph measured alone, not beside the list's second read of every resource
      await listQuiet(page);
      // in the page, as the list's filter: from the click (or the search's input event) to the
      // frame where the answer is drawn
      t.graph.push(
        await clickedInPage(page, '[data-testid=tab-graph]', `${countText}?.includes('nodes')`),
      );
      const project = await drawnProject(page);
      t.open.push(
        await clickedInPage(
          page,
          `[data-node="project:${project}"]`,
          `document.querySelector('[data-node="Service/${project}/vpc"]')`,
        ),
      );
      // the focus's own answer drawn (its count), not only its title above the old drawing
      const opened = await page.getByTestId('graph-count').textContent();
      t.focus.push(
        await clickedInPage(
          page,
          `[data-node="Service/${project}/vpc"]`,
          `document.querySelector('[data-testid=graph-focus]') && ${countText} !== ${JSON.stringify(opened)}`,
        ),
      );
      await page
        .getByRole('button', { name: 'Back to the projects' })
        .click({ timeout: 60_000 })
        .catch(() => page.reload());
      await page.getByTestId('graph-search').waitFor({ timeout: 60_000 });
      await page.waitForFunction(`${countText}?.includes('nodes')`);
      const before = await page.getByTestId('graph-count').textContent();
      const typed = await typedInPage(
        page,
        'graph-search',
        'proj-0042/ws-1/gpu-2',
        `${countText} !== ${JSON.stringify(before)}`,
      );
      t.search.push(Math.max(0, typed - 150));
      await context.close();
    }
  } finally {
    await browser.close();
    await fake.close();
  }
  console.log(`\n${size} resources (${runs} runs, medians)`);
  console.log(
    `  first paint: summary ${ms(median(t.summary))}, resource list ${ms(median(t.list))}`,
  );
  console.log(
    `  graph: drawn ${ms(median(t.graph))}, open a project ${ms(median(t.open))}, focus ${ms(median(t.focus))}, search ${ms(median(t.search))} (debounce excluded)`,
  );
  console.log(
    `  resource list: filter ${ms(median(t.filter))} in the page (${ms(median(t.filterQuiet))} once quiet; ${ms(median(t.filterFill))} by Playwright's fill), scroll ${ms(median(t.scroll))}`,
  );
  console.log(
    `  control API (Node): graph ${serverGraph.toFixed(1)} ms, focus ${serverFocus.toFixed(1)} ms, filtered page ${serverPage.toFixed(1)} ms, sorted first page (index included) ${serverSorted.toFixed(1)} ms`,
  );
}

for (const size of values.sizes.split(',').map(Number)) await measure(size);
