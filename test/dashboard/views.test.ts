import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResourceDetail, ResourceItem } from '../../web/src/api/resources.js';
import type { RunDetail } from '../../web/src/api/runs.js';
import { useChromium } from './helpers/chromium.js';
import { type FakeControlApi, startFakeControlApi, statusOf } from './helpers/fake-control-api.js';

// The page's views by URL (deep links, the back button, the keyboard, the colour scheme) in a
// real Chromium against the in-memory control API; page.test.ts covers the components.

const chromium = useChromium();

const item = (name: string, condition: ResourceItem['condition'] = 'Ready'): ResourceItem => ({
  key: `ComputeInstance/ml/gpu/${name}`,
  kind: 'ComputeInstance',
  project: 'ml',
  workspace: 'gpu',
  name,
  condition,
  reason: condition === 'Ready' ? 'Applied' : 'Drift',
  lastTransitionTime: '2026-11-23T10:00:00Z',
  order: 0,
  dependsOn: [],
});

let fake: FakeControlApi;
let page: Page;
afterEach(async () => {
  await page?.close();
  await fake?.close();
});

/** Opens `path` first (a link someone sent), then signs in: the page stays on that view. */
async function openAt(
  items: ResourceItem[],
  path: string,
  prepare: (f: FakeControlApi) => void = () => {},
): Promise<void> {
  fake = await startFakeControlApi(chromium.bundle, { status: statusOf(items), resources: items });
  prepare(fake);
  page = await chromium.browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${fake.url}${path}`);
  await page.getByTestId('token-input').fill(fake.token);
  await page.getByTestId('token-submit').click();
  await page.getByTestId('summary').waitFor();
}

const pathname = () => new URL(page.url()).pathname + new URL(page.url()).search;

describe('the views by URL', () => {
  it('opens a deep link to a resource, links back, and the back button returns', async () => {
    const items = [item('a100-0'), item('a100-1', 'Drifted')];
    await openAt(items, '/resources/ComputeInstance%2Fml%2Fgpu%2Fa100-1');
    expect(await page.getByTestId('resource-key').textContent()).toBe(items[1]!.key);
    await page.getByTestId('tab-runs').click();
    await expect.poll(pathname).toBe('/runs');
    await page.goBack();
    await expect.poll(pathname).toBe('/resources/ComputeInstance%2Fml%2Fgpu%2Fa100-1');
    await page.getByTestId('resource-key').waitFor();
  });

  it('keeps the condition filter and the key filter in the URL', async () => {
    const items = [item('a100-0'), item('a100-1', 'Drifted'), item('a100-2', 'Drifted')];
    await openAt(items, '/?condition=Drifted');
    await expect.poll(() => page.getByTestId('resource-row').count()).toBe(2);
    await page.getByTestId('resource-filter').fill('a100-2');
    await expect.poll(pathname).toBe('/?condition=Drifted&q=a100-2');
    await expect.poll(() => page.getByTestId('resource-row').count()).toBe(1);
    await page.getByTestId('count-Drifted').click();
    await expect.poll(pathname).toBe('/?q=a100-2');
    await page.reload();
    await expect.poll(() => page.getByTestId('resource-row').count()).toBe(1);
  });

  it('says so for a path that is no view', async () => {
    await openAt([item('a100-0')], '/nowhere');
    await page.getByTestId('no-view').waitFor();
  });

  it('opens a resource from the keyboard: rows are links, Enter follows', async () => {
    const items = [item('a100-0')];
    await openAt(items, '/');
    const row = page.getByTestId('resource-row');
    await row.focus();
    await page.keyboard.press('Enter');
    await expect.poll(pathname).toBe('/resources/ComputeInstance%2Fml%2Fgpu%2Fa100-0');
  });

  it('switches to dark mode and remembers it on the next visit', async () => {
    await openAt([item('a100-0')], '/');
    const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');
    expect(await scheme()).toBe('light');
    await page.getByTestId('color-scheme').click();
    await expect.poll(scheme).toBe('dark');
    await page.reload();
    await page.getByTestId('summary').waitFor();
    expect(await scheme()).toBe('dark');
  });
});

const SHA = 'c'.repeat(40);

describe('the resource and run pages', () => {
  it("shows git's document beside the platform's, the difference marked and worded, and acts", async () => {
    const items = [item('a100-0', 'Drifted')];
    const key = items[0]!.key;
    const detail: ResourceDetail = {
      resource: { ...items[0]!, message: 'metadata.description: platform has by hand' },
      source: {
        file: 'gpu/a100.yaml',
        line: 3,
        yaml: 'kind: ComputeInstance\nmetadata:\n  name: a100-0\n  description: one',
      },
      live: {
        body: {
          kind: 'ComputeInstance',
          metadata: { name: 'a100-0', description: 'by hand' },
          spec: { password: '********' },
        },
        powerState: 'on',
      },
      compute: { profile: 'bmaas-a100', units: 1, gpus: 8, powerState: 'on' },
      schedule: {
        schedule: 'PowerSchedule/office-hours',
        timeZone: 'Europe/Paris',
        state: 'on',
        why: 'period',
        next: [{ at: '2999-01-01T19:00:00Z', local: '2999-01-01T20:00+01:00', state: 'off' }],
        offHoursPerMonth: 400,
      },
      diff: [{ path: '/metadata/description', op: 'replace', desired: 'one', live: 'by hand' }],
      actions: [
        {
          runId: 'r9',
          type: 'update',
          reason: 'drift',
          outcome: 'planned',
          at: '2026-11-23T10:09:00Z',
          count: 3,
          since: '2026-11-23T10:01:00Z',
        },
        {
          runId: 'r1',
          type: 'create',
          reason: 'absent',
          outcome: 'succeeded',
          at: '2026-11-23T09:00:00Z',
          count: 1,
          durationMs: 2500,
        },
      ],
    };
    await openAt(items, `/resources/${encodeURIComponent(key)}`, (f) => {
      f.details.set(key, detail);
      // two priced lines of this instance this month (two profiles), one of another
      f.usage = [
        {
          project: 'ml',
          profile: 'bmaas-a100',
          instance: 'a100-0',
          hours: 10,
          gpuHours: 80,
          cost: 250,
        },
        {
          project: 'ml',
          profile: 'bmaas-h100',
          instance: 'a100-0',
          hours: 1,
          gpuHours: 8,
          cost: 40.5,
        },
        {
          project: 'ml',
          profile: 'bmaas-a100',
          instance: 'other',
          hours: 5,
          gpuHours: 40,
          cost: 125,
        },
      ];
      f.currency = 'USD';
      f.status = {
        ...f.status,
        revisions: Object.fromEntries(
          ['fetched', 'lastGood', 'lastApplied', 'lastAttempted'].map((r) => [
            r,
            { revision: SHA },
          ]),
        ),
        blockedPrune: { runId: 'r9', count: 2, limit: 1, keys: [key, 'Workspace/ml/old'] },
      };
    });
    expect(await page.getByTestId('source-at').textContent()).toBe('gpu/a100.yaml:3');
    const changed = (doc: string) =>
      page.locator(`[data-testid=${doc}] [data-changed]`).allTextContents();
    expect(await changed('desired-doc')).toEqual(['▸   description: one']);
    expect(await changed('live-doc')).toEqual(['▸   description: by hand']);
    expect(await page.getByTestId('live-doc').textContent()).toContain('password: "********"');
    expect(await page.getByTestId('diff-words').textContent()).toBe(
      'platform has by hand, git says one',
    );
    expect(await page.getByTestId('power-state').textContent()).toBe('power on');
    expect(await page.getByTestId('gpu-count').textContent()).toBe('8 GPUs');
    expect(await page.getByTestId('gpu-hours').textContent()).toBe('88 GPU-h this month');
    expect(await page.getByTestId('month-cost').textContent()).toBe('290.50 USD this month');
    const schedule = page.getByTestId('compute-schedule');
    expect(await schedule.textContent()).toMatch(
      /^schedule\s*office-hours\s*on\s*off in \d+ d \(2999-01-01T20:00\+01:00\)$/,
    );
    expect(await schedule.locator('time').getAttribute('title')).toBe('2999-01-01 19:00:00 UTC');
    const history = page.getByTestId('history-row');
    expect(await history.count()).toBe(2);
    expect(await history.first().textContent()).toContain('3 runs since');
    expect(await history.first().locator('time').first().getAttribute('title')).toBe(
      '2026-11-23 10:09:00 UTC',
    );
    // four revisions of one commit: one row
    expect(await page.getByTestId('revision-row').count()).toBe(1);
    expect(await page.getByTestId('revision-row').getAttribute('data-count')).toBe('4');

    await page.getByTestId('resource-reconcile').click();
    await expect
      .poll(() => page.getByTestId('resource-note').textContent())
      .toBe('reconcile requested');
    await page.getByTestId('resource-approve').click();
    expect(await page.getByTestId('prune-keys').textContent()).toBe(`${key}Workspace/ml/old`);
    const posts = fake.requests.filter((r) => r.line.startsWith('POST')).map((r) => r.line);
    expect(posts).toEqual([`POST /api/v1/resources/${encodeURIComponent(key)}/reconcile`]);
  });

  it('opens a run from the list: its actions with start, duration, outcome and error on a timeline', async () => {
    const run: RunDetail = {
      runId: 'run-7',
      revision: SHA,
      trigger: 'webhook',
      startedAt: '2026-11-23T10:00:00Z',
      durationMs: 10_000,
      result: 'failed',
      counts: { create: 1, update: 0, delete: 0, other: 0, failed: 1, skipped: 1 },
      failures: [{ key: 'ComputeInstance/ml/gpu/b', error: 'quota exceeded' }],
      actions: [
        {
          key: 'ComputeInstance/ml/gpu/a',
          type: 'create',
          reason: 'absent',
          outcome: 'succeeded',
          startedAt: '2026-11-23T10:00:01Z',
          durationMs: 4000,
        },
        {
          key: 'ComputeInstance/ml/gpu/b',
          type: 'create',
          reason: 'absent',
          outcome: 'failed',
          error: 'quota exceeded',
          startedAt: '2026-11-23T10:00:01Z',
          durationMs: 900,
        },
        {
          key: 'ComputeInstance/ml/gpu/c',
          type: 'publish',
          reason: 'not-deployed',
          outcome: 'skipped',
        },
      ],
    };
    await openAt([item('a')], '/runs', (f) => {
      const { actions: _a, ...listed } = run;
      f.runs = [listed];
      f.runDetails.set(run.runId, run);
    });
    const link = page.getByTestId('run-link');
    await link.focus();
    await page.keyboard.press('Enter');
    await expect.poll(pathname).toBe('/runs/run-7');
    await page.getByTestId('run-actions').waitFor();
    expect(await page.getByTestId('run-result').textContent()).toBe('failed');
    expect(await page.getByTestId('run-summary').textContent()).toContain('trigger: webhook');
    const outcomes = await page
      .getByTestId('run-action')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-outcome')));
    expect(outcomes).toEqual(['succeeded', 'failed', 'skipped']);
    expect(await page.getByTestId('run-action-error').textContent()).toBe('quota exceeded');
    expect(await page.getByTestId('timeline-bar').count()).toBe(2);
    await page.getByText('ComputeInstance/ml/gpu/a').click();
    await expect.poll(pathname).toBe('/resources/ComputeInstance%2Fml%2Fgpu%2Fa');
  });
});
