import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, defaultDialect } from '../../src/core/dialect.js';
import { converge, type World, world } from '../e2e/harness.js';
import { browserInstalled, launchBrowser } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { keyHeaders } from '../helpers/key-header.js';

let w: World;
const cli = (args: string[]) =>
  runCli(['usage', ...args], {
    env: { PLATCTL_BASE_URL: w.emulator.url, PLATCTL_API_KEY: w.apiKey },
    timeoutMs: 90_000,
  });

interface Row {
  project: string;
  instance?: string;
  profile: string;
  hours: number;
  gpuHours: number;
  cost?: number;
}

/**
 * The examples applied, then a day of the emulator's clock, the H100 box deleted half-way: it is
 * billed ~12 h, the other instances ~24 h.
 */
beforeAll(async () => {
  w = await world();
  // billed while powered on: k8s-train's weekday schedule would turn it off at weekends
  rmSync(join(w.manifests, '50-power-schedules.yaml'));
  const runs = await converge(w, { prune: false });
  expect(runs.at(-1)?.status).toBe('in-sync');
  w.emulator.clock.advance(12 * 3600);
  const res = await fetch(
    `${w.emulator.url}/apis/paas.envmgmt.io/v1/projects/platform/workspaces/shared-services/computeinstances/h100-inference`,
    { method: 'DELETE', headers: { ...keyHeaders(w.apiKey) } },
  );
  expect(res.status).toBe(202);
  w.emulator.clock.advance(12 * 3600);
}, 120_000);

afterAll(async () => {
  await w?.close();
});

describe('platctl usage', { timeout: 120_000 }, () => {
  it('reports hours, GPU-hours and cost per instance as JSON, CSV and a table', async () => {
    const prices = join(w.dir, 'prices.yaml');
    writeFileSync(
      prices,
      'currency: EUR\nprofiles:\n  bmaas-h100: { hourly: 90 }\n  bmaas-l40s: { hourly: 20, gpus: 4 }\n',
    );
    const json = await cli(['-o', 'json', '--prices', prices]);
    expect(json.stderr).toBe('');
    const report = JSON.parse(json.stdout) as { rows: Row[]; currency: string; total: Row };
    const byName = new Map(report.rows.map((r) => [r.instance, r]));
    const h100 = byName.get('h100-inference')!;
    // the spec's billing names no project, and a deleted instance can no longer be looked up to
    // find one; the vendor's rows name it (instance_project_name)
    const named = DIALECTS[defaultDialect()].usageRowExtras;
    const deletedIn = named ? 'platform' : '(deleted instances)';
    expect(h100).toMatchObject({ project: deletedIn, profile: 'bmaas-h100' });
    expect(byName.get('k8s-train')).toMatchObject({ project: 'ml-research', profile: 'gpu-k8s' });
    expect(h100.hours).toBeGreaterThan(11.9);
    expect(h100.hours).toBeLessThan(12.2);
    expect(byName.get('k8s-train')!.hours).toBeGreaterThan(23.9);
    expect(h100.gpuHours).toBeCloseTo(h100.hours * 8, 1); // the billing report's gpu_count usage
    expect(h100.cost).toBeCloseTo(h100.hours * 90, 1);
    expect(byName.get('k8s-train')?.cost).toBeUndefined(); // gpu-k8s has no price
    expect(report.currency).toBe('EUR');
    expect(report.total.hours).toBeCloseTo(
      report.rows.reduce((s, r) => s + r.hours, 0),
      2,
    );

    const csv = await cli(['-o', 'csv', '--project', 'ml-research']);
    const lines = csv.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('project,instance,profile,hours,gpu_hours,cost,currency');
    expect(lines.slice(1).every((l) => l.startsWith('ml-research,'))).toBe(true);
    expect(lines.length).toBeGreaterThan(1);

    const table = await cli(['--compute-profile', 'bmaas-h100', '--prices', prices]);
    expect(table.stdout).toMatch(
      /^PROJECT\s+INSTANCE\s+PROFILE\s+HOURS\s+GPU-HOURS\s+COST \(EUR\)$/m,
    );
    expect(table.stdout).toMatch(
      new RegExp(
        `^${deletedIn.replace(/[()]/g, '\\$&')}\\s+h100-inference\\s+bmaas-h100\\s+1[12]\\.\\d\\d`,
        'm',
      ),
    );
    expect(table.stdout).not.toMatch(/k8s-train/);
    // no --from/--to: the window is the last 30 days on the platform's clock, said on stderr
    expect(table.stderr).toMatch(
      /^usage from \S+ to \S+ \(the last 30 days on the platform's clock/,
    );
    expect(table.stdout).toMatch(/^TOTAL\s/m);
  });

  it('refuses a bad window and a bad price file with a clear error', async () => {
    const window = await cli(['--from', 'yesterday']);
    expect(window.code).toBe(1);
    expect(window.stderr).toMatch(/--from must be an ISO 8601 UTC date/);
    const prices = join(w.dir, 'bad-prices.yaml');
    writeFileSync(prices, 'profiles:\n  bmaas-h100: { hourly: cheap }\n');
    const bad = await cli(['--prices', prices]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/profiles\.bmaas-h100\.hourly must be a number/);
  });

  // the chart is checked in Chromium where it is installed (always in CI)
  describe.skipIf(!browserInstalled())('--html', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    }, 600_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('writes a self-contained page whose chart renders one bar per instance, as long as its hours', async () => {
      const file = join(w.dir, 'usage.html');
      const res = await cli(['--html', file, '-o', 'json']);
      expect(res.code).toBe(0);
      const rows = (JSON.parse(res.stdout) as { rows: Row[] }).rows;
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction(() => (globalThis as { usageChart?: unknown }).usageChart);
      const bars = await page.evaluate(() => {
        const chart = (
          globalThis as unknown as {
            usageChart: {
              data: { labels: string[] };
              getDatasetMeta(i: number): { data: { x: number; base: number }[] };
            };
          }
        ).usageChart;
        return {
          labels: chart.data.labels,
          lengths: chart.getDatasetMeta(0).data.map((b) => b.x - b.base),
        };
      });
      expect(errors).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]); // nothing from a CDN
      expect(bars.labels).toEqual(rows.map((r) => `${r.project}/${r.instance}`));
      const longest = Math.max(...bars.lengths);
      const most = Math.max(...rows.map((r) => r.hours));
      expect(longest).toBeGreaterThan(100); // drawn, not collapsed
      expect(new Set(rows.map((r) => Math.round(r.hours))).size).toBeGreaterThan(1);
      bars.lengths.forEach((len, i) => {
        expect(len / longest).toBeCloseTo(rows[i]!.hours / most, 2);
      });
      await page.close();
    });
  });
});
