import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type RetryEvent } from '../../src/providers/client/api-client.js';
import { type LineProcess, spawnPlatctl } from '../helpers/process.js';

/**
 * A 100,000-resource apply plans for tens of seconds without yielding after its lists were read;
 * meanwhile the platform closes the idle keep-alive connections (5 s), and the client, whose
 * idle timer could not fire, sent the first creates on them: ECONNRESET, a create that may have
 * reached the platform, retried behind an existence check (once a read of the whole users list
 * while the other creates changed it, which failed the run). The emulator runs in a process of
 * its own, as the platform does, so it closes the connections while this process is busy.
 */
const KEY = randomBytes(16).toString('hex');

let emulator: LineProcess;
let url: string;

beforeAll(async () => {
  emulator = spawnPlatctl(['emulator', '--port', '0'], { PLATCTL_EMULATOR_API_KEY: KEY });
  // a child's start can take tens of seconds on a loaded machine
  url = /listening on (http:\/\/\S+)/.exec(
    await emulator.waitFor(/listening on http/, 0, 110_000),
  )![1]!;
}, 120_000);
afterAll(() => {
  emulator?.child.kill('SIGTERM');
});

/** Holds the event loop as a long synchronous plan does. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin: no timer, no socket event runs meanwhile
  }
}

describe('a connection the platform closed while the process was busy', () => {
  it('is not used for the next request: the create goes out once, on a fresh connection', async () => {
    const retries: RetryEvent[] = [];
    const api = createApiClient({
      baseUrl: url,
      apiKey: KEY,
      rps: 1000,
      concurrency: 4,
      onRetry: (e) => retries.push(e),
    });
    try {
      const projects = '/apis/paas.envmgmt.io/v1/projects';
      // two reads at once leave two idle keep-alive connections behind
      await Promise.all(
        [1, 2].map(() =>
          api.request({
            method: 'GET',
            path: `${projects}/default/workspaces`,
            auth: 'paas',
            operation: 'listing',
          }),
        ),
      );
      // past the emulator's keep-alive timeout (node:http's 5 s, which closes a little after)
      busyFor(7_000);
      const res = await api.request({
        method: 'POST',
        path: `${projects}/default/workspaces`,
        auth: 'paas',
        operation: 'creating workspace stale-1',
        body: {
          apiVersion: 'paas.envmgmt.io/v1',
          kind: 'Workspace',
          metadata: { name: 'stale-1', project: 'default' },
        },
      });
      expect(retries.map((r) => `${r.failure ?? r.status} ${r.operation}`)).toEqual([]);
      expect(res.status).toBeLessThan(300);
      expect(res.recovered).toBeUndefined();
    } finally {
      api.close();
    }
  }, 30_000);
});
