import type { Browser, Page } from 'playwright-core';
import type { FakeControlApi } from '../test/dashboard/helpers/fake-control-api.js';

/**
 * A page of the dashboard signed in to `fake` (the token already in the tab), at the benchmarks'
 * fixed viewport, its CSP bypassed (the measuring probes are strings evaluated in it) and room
 * for every resource timing entry (the default buffer of 250 fills at 100,000 resources).
 */
export async function benchPage(browser: Browser, fake: FakeControlApi): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 },
    bypassCSP: true,
  });
  await context.addInitScript(
    `sessionStorage.setItem('platctl.controlToken', ${JSON.stringify(fake.token)});
     performance.setResourceTimingBufferSize(100000);`,
  );
  return context.newPage();
}

/**
 * Resolves once the page has read no page of the resource list for `quietMs`: measured while
 * the list is still being read (before it was paged by the server, the page read every resource
 * twice at start, 20 pages at 10,000), a graph interaction measures the list's parsing too, on
 * the same main thread.
 */
export async function listQuiet(page: Page, quietMs = 1500): Promise<void> {
  await page.waitForFunction(
    `(() => {
      const read = performance.getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/v1/resources'));
      const last = read.length ? read[read.length - 1].responseEnd : 0;
      return performance.now() - last > ${quietMs};
    })()`,
    undefined,
    { polling: 250, timeout: 300_000 },
  );
}

/**
 * The first project the collapsed graph draws: at 100,000 resources the fitted overview is at
 * its least zoom and only the projects in view are in the page (proj-0003 may not be).
 */
export async function drawnProject(page: Page): Promise<string> {
  const id = await page
    .locator('[data-node^="project:"]')
    .first()
    .getAttribute('data-node', { timeout: 60_000 });
  return id!.slice('project:'.length);
}

/**
 * Milliseconds, measured in the page, from `text` put into the input `testId` (one `input`
 * event, as a key typed or a paste) to the first animation frame where `done` holds. Playwright's
 * `fill` adds its own checks and round trips to the browser (it waits for the element to be
 * stable over two frames, focuses it, selects its text): on a loaded 2-core machine those were
 * most of the 268 ms first recorded for the list's filter (issue 26).
 */
export async function typedInPage(
  page: Page,
  testId: string,
  text: string,
  done: string,
): Promise<number> {
  return (await page.evaluate(`(async () => {
    const input = document.querySelector('[data-testid=${testId}]');
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const start = performance.now();
    set.call(input, ${JSON.stringify(text)});
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const deadline = start + 60000;
    while (!(${done}) && performance.now() < deadline) {
      await new Promise((r) => requestAnimationFrame(r));
    }
    return (${done}) ? performance.now() - start : NaN;
  })()`)) as number;
}

/**
 * Milliseconds, measured in the page, from a click on the element `selector` (one `click`
 * event, as a pointer or the keyboard's Enter gives) to the first animation frame where `done`
 * holds: the graph's clicks measured as {@link typedInPage} measures a key, without
 * Playwright's round trips to the browser.
 */
export async function clickedInPage(page: Page, selector: string, done: string): Promise<number> {
  return (await page.evaluate(`(async () => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return NaN;
    const start = performance.now();
    el.click();
    const deadline = start + 60000;
    while (!(${done}) && performance.now() < deadline) {
      await new Promise((r) => requestAnimationFrame(r));
    }
    return (${done}) ? performance.now() - start : NaN;
  })()`)) as number;
}
