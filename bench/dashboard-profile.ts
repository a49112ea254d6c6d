/**
 * Where the graph's interactions spend the browser's time:
 * `npx tsx bench/dashboard-profile.ts [--size 10000] [--top 25] [--trace-only] [--bundle DIR]`.
 *
 * Builds the page unminified (function names kept, each bundled module preceded by a
 * `// <path>` comment) into a temporary directory, serves it from the browser tests'
 * in-memory control API over N synthetic resources (as bench/dashboard.ts does), and runs
 * Chromium's sampling profiler (CDP `Profiler.start`/`stop`, 100 µs) and a timeline trace
 * (`Tracing`: the main thread's CPU time and self time per event, style, layout and paint
 * included, which the profiler lumps as `(program)`) around each interaction of
 * bench/dashboard.ts: the resource list's key filter typed and cleared (right after the first
 * rows, then once the page has finished reading the list), the Graph tab to its projects drawn,
 * opening a project, focusing on a resource, a search. Prints each interaction's wall time and the self time summed per function
 * and per bundled module (a package, or a file of `web/src`), plus the engine's own entries
 * (`(garbage collector)`, `(program)`: native work such as style, layout and paint, `(idle)`).
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CDPSession, Page, Response } from 'playwright-core';
import { build } from 'vite';
import { counts, startFakeControlApi } from '../test/dashboard/helpers/fake-control-api.js';
import { statusFor } from '../test/dashboard/helpers/sign-in.js';
import { syntheticConditions } from '../test/dashboard/helpers/synthetic.js';
import { launchBrowser } from '../test/helpers/browser.js';
import type { ResourceItem } from '../web/src/api/resources.js';
import { benchPage, drawnProject, listQuiet } from './dashboard-page.js';
import { startTrace } from './dashboard-trace.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '10000' },
    top: { type: 'string', default: '25' },
    /** The trace alone: the sampling profiler's own start-up and overhead left out. */
    'trace-only': { type: 'boolean', default: false },
    /** A page built elsewhere (another commit's, minified: no module names), to compare. */
    bundle: { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

/** The page built unminified into a temporary directory; each JS line's bundled module. */
async function unminifiedBundle(): Promise<{ dir: string; moduleAt(line: number): string }> {
  const dir = mkdtempSync(join(tmpdir(), 'platctl-dashboard-profile-'));
  await build({
    configFile: join(ROOT, 'web', 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: dir, minify: false, emptyOutDir: true },
  });
  const js = readdirSync(join(dir, 'assets')).find((f) => f.endsWith('.js'))!;
  const regions: string[] = [];
  let current = '(bundle)';
  for (const line of readFileSync(join(dir, 'assets', js), 'utf8').split('\n')) {
    const region = /^\/\/ (\S+\.(?:m?js|cjs|tsx?))$/.exec(line);
    if (region) current = moduleName(region[1]!);
    regions.push(current);
  }
  return { dir, moduleAt: (line) => regions[line] ?? '(bundle)' };
}

/** `node_modules/@xyflow/system/dist/esm/index.js` → `@xyflow/system`; `src/x.ts` kept. */
function moduleName(path: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return m ? m[1]! : path.replace(/^.*?web\//, 'web/');
}

/** Self time (ms) per key over a profile's samples. */
function selfTimes(profile: Profile, key: (f: CallFrame) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const k = key(byId.get(id)!);
    total.set(k, (total.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return total;
}

function print(title: string, times: Map<string, number>, top: number): void {
  const sum = [...times.values()].reduce((a, b) => a + b, 0);
  console.log(`  ${title} (${sum.toFixed(0)} ms sampled)`);
  for (const [k, t] of [...times].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `    ${t.toFixed(1).padStart(8)} ms ${((100 * t) / sum).toFixed(1).padStart(5)} %  ${k}`,
    );
  }
}

async function profiled(
  page: Page,
  cdp: CDPSession,
  name: string,
  act: () => Promise<void>,
  done: string,
  moduleAt: (line: number) => string,
): Promise<void> {
  const answers: Promise<string>[] = [];
  const seen = (res: Response) => {
    if (res.url().includes('/api/'))
      answers.push(res.body().then((b) => `${new URL(res.url()).pathname} ${b.length} B`, String));
  };
  page.on('response', seen);
  const endTrace = await startTrace(cdp);
  const sample = !values['trace-only'];
  if (sample) await cdp.send('Profiler.start');
  const t0 = performance.now();
  try {
    await act();
    await page.waitForFunction(done, undefined, { polling: 'raf', timeout: 120_000 });
  } catch (err) {
    // end what was started, so the next step can start its own
    if (sample) await cdp.send('Profiler.stop');
    await endTrace();
    page.off('response', seen);
    throw err;
  }
  const wall = performance.now() - t0;
  const stopped = sample ? await cdp.send('Profiler.stop') : undefined;
  const main = await endTrace();
  page.off('response', seen);
  const top = Number(values.top);
  console.log(`\n${name}: ${wall.toFixed(0)} ms from the action to the result drawn`);
  console.log(
    `  renderer main thread: ${main.cpuMs.toFixed(0)} ms CPU, ${main.busyMs.toFixed(0)} ms busy`,
  );
  print('self time per trace event (main thread)', main.self, top);
  if (!stopped) return;
  const profile = stopped.profile as unknown as Profile;
  console.log(`  answers read: ${(await Promise.all(answers)).join(', ') || 'none'}`);
  const where = (f: CallFrame) => (f.url ? moduleAt(f.lineNumber) : f.functionName);
  print('self time per module', selfTimes(profile, where), top);
  print(
    'self time per function',
    selfTimes(profile, (f) =>
      f.url
        ? `${f.functionName || '(anonymous)'}  ${where(f)}:${f.lineNumber + 1}`
        : f.functionName,
    ),
    top,
  );
}

const countText = `document.querySelector('[data-testid=graph-count]')?.textContent`;
const items = syntheticConditions(Number(values.size)) as unknown as ResourceItem[];
const bundle = values.bundle
  ? { dir: values.bundle, moduleAt: () => '(bundle)', given: true }
  : { ...(await unminifiedBundle()), given: false };
const fake = await startFakeControlApi(bundle.dir, {
  status: statusFor(counts(items)),
  resources: items,
});
const browser = await launchBrowser();
try {
  const page = await benchPage(browser, fake);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await page.goto(fake.url);
  await page.getByTestId('resource-row').first().waitFor({ timeout: 120_000 });
  // a step that fails (a node out of view at 100,000) is reported, the others still run
  const step = (name: string, act: () => Promise<void>, done: string) =>
    profiled(page, cdp, name, act, done, bundle.moduleAt).catch((err) => {
      console.log(`\n${name}: not measured: ${String(err).split('\n')[0]}`);
    });
  // the list's filter as bench/dashboard.ts measures it: right after the first rows, then quiet
  const filter = page.getByTestId('resource-filter');
  const fewRows = `document.querySelectorAll('[data-testid=resource-row]').length <= 3`;
  const manyRows = `document.querySelectorAll('[data-testid=resource-row]').length > 10`;
  await step(
    'list filter (after the first rows)',
    () => filter.fill('proj-0007/ws-3/gpu-2'),
    fewRows,
  );
  await step('list filter cleared', () => filter.fill(''), manyRows);
  await listQuiet(page);
  await step('list filter (quiet)', () => filter.fill('proj-0008/ws-3/gpu-2'), fewRows);
  await step('list filter cleared (quiet)', () => filter.fill(''), manyRows);
  await listQuiet(page);
  await step(
    'graph tab to projects drawn',
    () => page.getByTestId('tab-graph').click(),
    `${countText}?.includes('nodes')`,
  );
  const project = await drawnProject(page);
  await step(
    'open a project',
    () => page.locator(`[data-node="project:${project}"]`).dispatchEvent('click'),
    `document.querySelector('[data-node="Service/${project}/vpc"]')`,
  );
  // to the focus's own answer drawn (its count), not only its title above the old drawing
  const opened = await page.getByTestId('graph-count').textContent();
  await step(
    'focus on a resource',
    () => page.locator(`[data-node="Service/${project}/vpc"]`).dispatchEvent('click'),
    `document.querySelector('[data-testid=graph-focus]') && ${countText} !== ${JSON.stringify(opened)}`,
  );
  await page
    .getByRole('button', { name: 'Back to the projects' })
    .click({ timeout: 60_000 })
    .catch(() => page.goto(`${fake.url}/graph`));
  await page.getByTestId('graph-search').waitFor();
  await page.waitForTimeout(1000);
  const before = await page.getByTestId('graph-count').textContent();
  await step(
    'search (debounce included)',
    () => page.getByTestId('graph-search').fill('proj-0042/ws-1/gpu-2'),
    `${countText} !== ${JSON.stringify(before)}`,
  );
} finally {
  await browser.close();
  await fake.close();
  if (!bundle.given) rmSync(bundle.dir, { recursive: true, force: true });
}
