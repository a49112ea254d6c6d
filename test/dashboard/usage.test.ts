import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dashboardRoutes } from '../../src/controller/http/dashboard/routes.js';
import { createLogger } from '../../src/core/logger.js';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import type { PriceFile } from '../../src/model/prices.js';
import { createApiClient } from '../../src/providers/index.js';
import { createUsageReader, parseHours, UNATTRIBUTED } from '../../src/providers/usage-reader.js';
import { converge, type World, world } from '../e2e/harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

const client = () => createApiClient({ baseUrl: w.emulator.url, apiKey: w.apiKey });

async function advanceHours(hours: number): Promise<void> {
  const res = await emulatorControl(w.emulator.url, 'POST', '/_emulator/clock/advance', {
    seconds: hours * 3600,
  });
  expect(res.status).toBe(200);
}

/**
 * The examples plus an instance named like platform's `h100-inference`, in ml-research, with
 * every instance on: the platform bills only while powered on, and the examples keep l40s-dev off
 * and k8s-train off at weekends.
 */
async function convergeWithTwin(): Promise<void> {
  rmSync(join(w.manifests, '50-power-schedules.yaml'));
  const research = join(w.manifests, '20-ml-research.yaml');
  const text = readFileSync(research, 'utf8');
  expect(text).toContain('platctl.io/power-state: "off"');
  writeFileSync(
    research,
    text.replace('platctl.io/power-state: "off"', 'platctl.io/power-state: "on"'),
  );
  const platform = readFileSync(join(w.manifests, '10-platform.yaml'), 'utf8');
  const start = platform.indexOf('apiVersion: paas.envmgmt.io/v1\nkind: ComputeInstance');
  const end = platform.indexOf('\n---', start);
  const twin = platform
    .slice(start, end < 0 ? undefined : end)
    .replace('project: platform', 'project: ml-research')
    .replace('workspace: shared-services', 'workspace: experiments');
  writeFileSync(join(w.manifests, '40-twin.yaml'), `${twin}\n`);
  const results = await converge(w);
  expect(results.at(-1)?.status).toBe('in-sync');
}

describe('usage per project from the billing endpoints', () => {
  it('attributes each instance to its project, same-named instances included, with GPU-hours', async () => {
    await convergeWithTwin();
    await advanceHours(2);
    const items = await createUsageReader(client())({});
    const by = (project: string) =>
      items
        .filter((i) => i.project === project)
        .map((i) => `${i.instance} ${i.profile}`)
        .sort();
    expect(by('platform')).toEqual(['h100-inference bmaas-h100']);
    expect(by('ml-research')).toEqual([
      'h100-inference bmaas-h100',
      'k8s-train gpu-k8s',
      'l40s-dev bmaas-l40s',
    ]);
    expect(items.filter((i) => i.project === UNATTRIBUTED)).toEqual([]);
    for (const i of items) {
      expect(i.hours).toBeGreaterThanOrEqual(2);
      expect(i.hours).toBeLessThan(2.1);
      expect(i.gpuHours).toBeCloseTo(i.hours * 8, 1); // every seeded GPU profile has 8 GPUs
    }
    const only = await createUsageReader(client())({ project: 'platform' });
    expect(only.map((i) => `${i.project} ${i.instance}`)).toEqual(['platform h100-inference']);
  });

  it('parses the API hours format and refuses anything else', () => {
    expect(parseHours('1200.00h')).toBe(1200);
    expect(parseHours('0.01h')).toBe(0.01);
    expect(() => parseHours('12')).toThrow(/not "N.NNh"/);
  });
});

describe('GET /api/v1/usage', () => {
  let server: Server;
  let base: string;
  const TOKEN = 'control-token-usage-3b9e';
  const start = async (controlToken?: string, prices?: PriceFile) => {
    const routes = dashboardRoutes({
      api: client(),
      logger: createLogger({ level: 'error' }),
      ...(controlToken ? { controlToken } : {}),
      ...(prices ? { prices } : {}),
    });
    server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      for (const r of routes) if (await r(req, res, url)) return;
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  afterEach(() => new Promise<void>((r) => server.close(() => r())));
  const get = (path: string, token?: string) =>
    fetch(`${base}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

  it('answers only with the control token, validates its query, and reports usage', async () => {
    await start(TOKEN);
    expect((await get('/api/v1/usage')).status).toBe(401);
    expect(await (await get('/api/v1/usage', 'wrong')).json()).toEqual({ error: 'unauthorized' });
    const bad = await get('/api/v1/usage?from=yesterday', TOKEN);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/from is not an ISO 8601/);
    expect((await get('/api/v1/usage?project=../x', TOKEN)).status).toBe(400);
    const empty = await get('/api/v1/usage', TOKEN);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ items: [] });
  });

  it('prices each line with --prices, and sums each day of the range for the trend', async () => {
    await convergeWithTwin();
    await advanceHours(30);
    await start(TOKEN, { currency: 'EUR', profiles: { 'bmaas-h100': { hourly: 10, gpus: 8 } } });
    const body = (await (await get('/api/v1/usage', TOKEN)).json()) as {
      items: { profile: string; hours: number; cost?: number; gpus?: number }[];
      currency: string;
    };
    expect(body.currency).toBe('EUR');
    const h100 = body.items.filter((i) => i.profile === 'bmaas-h100');
    expect(h100).toHaveLength(2);
    for (const i of h100) expect(i.cost).toBeCloseTo(i.hours * 10, 1);
    expect(body.items.find((i) => i.profile === 'bmaas-l40s')).not.toHaveProperty('cost');
    expect(body.items.find((i) => i.profile === 'bmaas-l40s')?.gpus).toBe(8); // documented
    // the emulator's clock: the last 30 hours, day by day
    const clock = await emulatorControl(w.emulator.url, 'GET', '/_emulator/clock');
    const to = ((await clock.json()) as { now: string }).now;
    const from = new Date(Date.parse(to) - 30 * 3_600_000).toISOString();
    const daily = (await (
      await get(`/api/v1/usage/daily?from=${from}&to=${to}`, TOKEN)
    ).json()) as { days: { day: string; hours: number; cost?: number }[] };
    expect(daily.days.length).toBeGreaterThanOrEqual(2);
    expect(daily.days.length).toBeLessThanOrEqual(3);
    const total = (await (await get(`/api/v1/usage?from=${from}&to=${to}`, TOKEN)).json()) as {
      items: { hours: number }[];
    };
    const sum = daily.days.reduce((a, d) => a + d.hours, 0);
    expect(sum).toBeCloseTo(
      total.items.reduce((a, i) => a + i.hours, 0),
      0,
    );
  });

  it('is 404 like the control API when no token is configured', async () => {
    await start();
    const res = await get('/api/v1/usage', 'anything');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'control API disabled' });
  });
});
