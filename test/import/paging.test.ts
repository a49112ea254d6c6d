import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { importPlatform } from '../../src/import/index.js';
import { createApiClient, createProviderRegistry } from '../../src/providers/index.js';
import { keyHeaders } from '../helpers/key-header.js';

const COUNT = 1_050; // more than one page of 1,000
let emulator: RunningEmulator;
let dir: string;
const apiKey = randomBytes(16).toString('hex');

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey });
  dir = mkdtempSync(join(tmpdir(), 'platctl-import-paging-'));
  const queue = new PQueue({ concurrency: 16 });
  for (let i = 0; i < COUNT; i++) {
    void queue.add(async () => {
      const res = await fetch(
        `${emulator.url}/apis/paas.envmgmt.io/v1/projects/platform/workspaces`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...keyHeaders(apiKey) },
          body: JSON.stringify({
            apiVersion: 'paas.envmgmt.io/v1',
            kind: 'Workspace',
            metadata: { name: `ws-${String(i).padStart(4, '0')}`, project: 'platform' },
          }),
        },
      );
      expect(res.status).toBeLessThan(300);
    });
  }
  await queue.onIdle();
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('import of a project larger than a page', () => {
  it('reads every page, each request through the one client', async () => {
    const requests: string[] = [];
    const api = createApiClient({
      baseUrl: emulator.url,
      apiKey,
      clock: systemClock,
      rps: 1_000,
      onRequest: (e) => requests.push(e.operation),
    });
    const result = await importPlatform(
      { scope: { projects: ['platform'], kinds: ['Workspace'] }, outDir: join(dir, 'out') },
      { api, providers: createProviderRegistry(), clock: systemClock },
    );
    expect(result.counts).toEqual({ Workspace: COUNT });
    expect(requests.filter((r) => r === 'listing workspaces of project platform')).toHaveLength(2);
    expect(requests).toHaveLength(3); // projects, then two pages of workspaces
    const text = readFileSync(join(dir, 'out', 'project-platform.yaml'), 'utf8');
    expect(text.match(/^kind: Workspace$/gm)).toHaveLength(COUNT);
    expect(text.indexOf('name: ws-0000')).toBeLessThan(text.indexOf('name: ws-1049'));
  });
});
