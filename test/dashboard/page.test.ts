import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Condition, ResourceItem } from '../../web/src/api/resources.js';
import type { Status } from '../../web/src/api/status.js';
import { useChromium } from './helpers/chromium.js';
import { counts, type FakeControlApi, startFakeControlApi } from './helpers/fake-control-api.js';

// The page's components in a real Chromium, against an in-memory control API that speaks the
// contract; the end-to-end test (e2e-dashboard.test.ts) drives the real controller.

const chromium = useChromium();

function resources(projects: number, perProject: number): ResourceItem[] {
  const out: ResourceItem[] = [];
  let order = 0;
  const add = (key: string, kind: string, project: string, name: string, extra = {}) =>
    out.push({
      key,
      kind,
      project,
      name,
      condition: 'Ready',
      reason: 'Applied',
      lastTransitionTime: '2026-11-23T10:00:00Z',
      order: order++,
      dependsOn: [],
      ...extra,
    });
  for (let p = 0; p < projects; p++) {
    const project = `proj-${String(p).padStart(2, '0')}`;
    add(`Workspace/${project}/ws`, 'Workspace', project, 'ws');
    for (let i = 1; i < perProject; i++) {
      const name = `vm-${String(i).padStart(4, '0')}`;
      add(`ComputeInstance/${project}/ws/${name}`, 'ComputeInstance', project, name, {
        workspace: 'ws',
      });
    }
  }
  return out;
}

function statusOf(items: ResourceItem[], extra: Partial<Status> = {}): Status {
  return {
    source: { repo: 'https://git.example.invalid/platform.git', branch: 'main', path: 'platform/' },
    role: 'leader',
    suspended: false,
    dryRun: false,
    selfHeal: true,
    revisions: {
      fetched: { revision: 'c'.repeat(40), message: 'Add the GPU pool', author: 'dana' },
      lastGood: { revision: 'b'.repeat(40), message: 'Resize ws' },
      lastApplied: { revision: 'b'.repeat(40), message: 'Resize ws' },
    },
    sourceReady: true,
    rejected: [
      {
        revision: 'c'.repeat(40),
        at: '2026-11-23T10:01:00Z',
        diagnostics: [
          {
            file: 'platform/gpu.yaml',
            line: 12,
            column: 5,
            message: 'spec.computeProfile.name must be a string',
            severity: 'error',
          },
        ],
      },
    ],
    counts: counts(items),
    lastResult: 'succeeded',
    ...extra,
  };
}

let fake: FakeControlApi;
let page: Page;
afterEach(async () => {
  await page?.close();
  await fake?.close();
});

async function open(items: ResourceItem[], extra: Partial<Status> = {}): Promise<void> {
  fake = await startFakeControlApi(chromium.bundle, {
    status: statusOf(items, extra),
    resources: items,
  });
  page = await chromium.browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(fake.url);
  await page.getByTestId('token-input').fill(fake.token);
  await page.getByTestId('token-submit').click();
  await page.getByTestId('summary').waitFor();
}

const countOf = async (c: Condition) =>
  Number(await page.getByTestId(`count-${c}`).getAttribute('data-count'));

describe('the dashboard page', () => {
  beforeEach(() => {
    page = undefined as unknown as Page;
  });

  it('asks for the token once, refuses a wrong one, and never puts it in a URL', async () => {
    const items = resources(2, 3);
    fake = await startFakeControlApi(chromium.bundle, {
      status: statusOf(items),
      resources: items,
    });
    page = await chromium.browser.newPage();
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await page.goto(fake.url);
    await page.getByTestId('token-input').fill('not-the-token');
    await page.getByTestId('token-submit').click();
    await expect.poll(() => page.getByTestId('token-error').textContent()).toMatch(/not accepted/);
    await page.getByTestId('token-input').fill(fake.token);
    await page.getByTestId('token-submit').click();
    await page.getByTestId('summary').waitFor();
    await page.reload();
    await page.getByTestId('summary').waitFor(); // kept for the tab: no second prompt
    expect(await page.evaluate('Object.values(sessionStorage)')).toContain(fake.token);
    expect(urls.filter((u) => u.includes(fake.token))).toEqual([]);
    expect(fake.requests.filter((r) => !r.authorized).map((r) => r.line)).toEqual([
      'GET /api/v1/status',
    ]);
  });

  it('shows the source, the rejected revision at file:line:col, and the counts', async () => {
    const items = resources(3, 4);
    items[1] = { ...items[1]!, condition: 'Drifted', reason: 'Drift' };
    items[2] = { ...items[2]!, condition: 'Degraded', reason: 'ActionFailed' };
    await open(items);
    expect(await page.getByTestId('source').textContent()).toContain('platform.git @ main');
    expect(await page.getByTestId('rejected').textContent()).toContain('platform/gpu.yaml:12:5');
    expect(await countOf('Ready')).toBe(10);
    expect(await countOf('Drifted')).toBe(1);
    expect(await countOf('Degraded')).toBe(1);
    const drifted = page.locator('[data-testid=resource-row][data-condition=Drifted]');
    expect(await drifted.getAttribute('data-key')).toBe('ComputeInstance/proj-00/ws/vm-0001');
  });

  it('keeps 10,000 resources usable: few rows in the DOM, scrolling and collapsing', async () => {
    const items = resources(20, 500);
    await open(items);
    await expect
      .poll(() => page.getByTestId('resource-shown').textContent())
      .toBe('10000 shown in 20 projects');
    expect(await page.getByTestId('resource-row').count()).toBeLessThan(60);
    await page.getByTestId('resource-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.locator('[data-key="ComputeInstance/proj-19/ws/vm-0499"]').waitFor();
    await page.getByTestId('resource-filter').fill('proj-07/ws/vm-0042');
    await expect.poll(() => page.getByTestId('resource-row').count()).toBe(1);
    await page.getByTestId('resource-filter').fill('');
    await page.getByTestId('resource-scroll').evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.getByTestId('project-proj-00').click();
    await expect.poll(() => page.getByTestId('project-proj-01').isVisible()).toBe(true);
  });

  it('opens a resource with its desired-vs-live diff and last actions', async () => {
    const items = resources(1, 2);
    await open(items);
    const key = items[1]!.key;
    fake.details.set(key, {
      resource: { ...items[1]!, condition: 'Drifted', reason: 'Drift' },
      desired: { spec: { powerState: 'on' } },
      live: { body: { spec: { powerState: 'off', password: '********' } } },
      diff: [{ path: '/spec/powerState', op: 'replace', desired: 'on', live: 'off' }],
      actions: [
        {
          runId: 'r1',
          type: 'update',
          reason: 'drift',
          outcome: 'succeeded',
          at: '2026-11-23T10:00:00Z',
          count: 1,
        },
      ],
    });
    await page.locator(`[data-key="${key}"]`).click();
    const diff = page.getByTestId('diff');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('spec.powerStateplatform has off, git says on');
    expect(await page.getByTestId('actions').textContent()).toContain('drift');
    expect(await page.getByTestId('resource-detail').textContent()).toContain('********');
  });

  it('follows status events without a reload', async () => {
    const items = resources(1, 5);
    await open(items);
    await expect.poll(() => page.getByTestId('live').textContent()).toBe('stream');
    const changed = items.map((i, n) =>
      n === 2 ? { ...i, condition: 'Drifted' as const, reason: 'Drift' } : i,
    );
    fake.resources = changed;
    fake.status = { ...fake.status, counts: counts(changed) };
    fake.pushStatus();
    await expect.poll(() => countOf('Drifted')).toBe(1);
    await page.locator('[data-testid=resource-row][data-condition=Drifted]').waitFor();
  });

  it('approves a blocked prune only after a confirmation naming what it deletes', async () => {
    const items = resources(1, 3);
    const keys = ['Workspace/old/a', 'Workspace/old/b'];
    await open(items, { blockedPrune: { runId: 'run-42', count: 2, limit: 1, keys } });
    await page.getByTestId('prune-review').click();
    expect(await page.getByTestId('prune-keys').textContent()).toBe(keys.join(''));
    expect(fake.requests.some((r) => r.line.startsWith('POST'))).toBe(false);
    await page.getByTestId('prune-confirm').click();
    await page.getByTestId('prune-alert').waitFor({ state: 'detached' });
    expect(fake.requests.filter((r) => r.line.startsWith('POST')).map((r) => r.line)).toEqual([
      'POST /api/v1/prunes/run-42/approve',
    ]);
  });

  it('says what was removed from git and left on the platform, and what it keeps costing', async () => {
    const items = resources(1, 3);
    const keys = ['ComputeInstance/ml/pool/h100-a', 'ComputeInstance/ml/pool/h100-b'];
    const orphaned = [
      ...items,
      ...keys.map((key, i) => ({
        key,
        kind: 'ComputeInstance',
        project: 'ml',
        workspace: 'pool',
        name: key.split('/').pop()!,
        condition: 'Orphaned' as const,
        reason: 'RemovedFromGit',
        message: 'removed from git but not created by this state: left on the platform',
        lastTransitionTime: '2026-11-23T10:00:00Z',
        order: items.length + i,
        dependsOn: [],
      })),
    ];
    const message =
      'removed from git but not created by this state: left on the platform, never pruned.';
    const gpu = {
      currency: 'USD',
      changes: [
        {
          profile: 'bmaas-h100',
          instances: 2,
          gpuHoursPerDay: 384,
          gpuHoursPerMonth: 11680,
          costPerDay: 4720.8,
          costPerMonth: 143590.3,
        },
      ],
    };
    fake = await startFakeControlApi(chromium.bundle, {
      status: statusOf(orphaned, { leftOnPlatform: { keys, message, gpu } }),
      resources: orphaned,
    });
    page = await chromium.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(fake.url);
    await page.getByTestId('token-input').fill(fake.token);
    await page.getByTestId('token-submit').click();
    await page.getByTestId('left-alert').waitFor();
    expect(await page.getByTestId('left-message').textContent()).toBe(`2 resources ${message}`);
    expect(await page.getByTestId('left-gpu').textContent()).toBe(
      'Still running: 2 × bmaas-h100 ≈ 384 GPU-h/day (11,680/month), 4,720.8 USD/day (143,590.3/month)',
    );
    expect(await page.getByTestId('left-keys').textContent()).toBe(keys.join(''));
    expect(await countOf('Orphaned')).toBe(2);
  });

  it('suspends and resumes, and asks for a reconcile', async () => {
    await open(resources(1, 2));
    await page.getByTestId('suspend').click();
    await page.getByTestId('resume').waitFor();
    await page.getByTestId('resume').click();
    await page.getByTestId('suspend').waitFor();
    await page.getByTestId('reconcile').click();
    await expect
      .poll(() => page.getByTestId('action-note').textContent())
      .toBe('reconcile requested');
    expect(fake.requests.filter((r) => r.line.startsWith('POST')).map((r) => r.line)).toEqual([
      'POST /api/v1/suspend',
      'POST /api/v1/resume',
      'POST /api/v1/reconcile',
    ]);
  });

  it('charts usage per project with the numbers beside it', async () => {
    await open(resources(1, 2));
    fake.usage = [
      { project: 'ml-research', profile: 'bmaas-l40s', instance: 'a', hours: 10, gpuHours: 80 },
      { project: 'ml-research', profile: 'bmaas-h100', instance: 'b', hours: 2.5, gpuHours: 20 },
      { project: 'platform', profile: 'bmaas-h100', instance: 'c', hours: 4 },
    ];
    await page.getByTestId('tab-usage').click();
    await page.getByTestId('usage-table').waitFor();
    const rows = await page.getByTestId('usage-row').allTextContents();
    expect(rows).toEqual(['ml-research12.50100.00', 'platform4.000.00']);
    // the chart draws what the table says: one segment per (project, profile) with hours, each
    // as long as its hours (10 : 2.5 : 4)
    const measure = async () => {
      const out: number[] = [];
      for (const bar of await page.locator('.recharts-bar-rectangle path').all()) {
        const box = await bar.boundingBox();
        if (box && box.width > 0.5) out.push(box.width);
      }
      return out;
    };
    // the chart lays itself out once it knows its width: wait for all three segments
    let widths: number[] = [];
    await expect
      .poll(
        async () => {
          widths = await measure();
          return widths.length;
        },
        { timeout: 10_000 },
      )
      .toBe(3);
    const unit = Math.max(...widths) / 10;
    expect(widths.map((w) => Math.round((w / unit) * 10) / 10).sort()).toEqual([10, 2.5, 4]);
  });
});
