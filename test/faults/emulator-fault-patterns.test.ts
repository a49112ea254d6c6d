import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { keyHeaders } from '../helpers/key-header.js';
import { type LineProcess, spawnPlatctl } from '../helpers/process.js';

// Fault patterns are regular expressions posted to a test control, and the path they are tried
// on is whatever a client requests. On a backtracking engine some patterns take exponential or
// high-polynomial time on a path chosen for them, and that one request holds the emulator's only
// thread. The emulator runs as a child process here (`platctl emulator --admin`), so a stuck one
// fails these tests at their timeout instead of freezing the test worker, and is killed after.
const KEY = 'fault-pattern-key-0042';

let emulator: LineProcess;
let url: string;
beforeAll(async () => {
  emulator = spawnPlatctl(['emulator', '--port', '0', '--admin'], {
    PLATCTL_EMULATOR_API_KEY: KEY,
  });
  url = /listening on (http:\/\/\S+)/.exec(await emulator.waitFor(/listening on /))![1]!;
}, 60_000);
afterAll(() => {
  emulator?.child.kill('SIGKILL');
});

const get = (path: string) => fetch(`${url}${path}`, { headers: { ...keyHeaders(KEY) } });
const addFault = (path: string) =>
  emulatorControl(url, 'POST', '/_emulator/faults', { path, status: 503 });

// [pattern, a path it matches, a path built to make a backtracking engine search forever]
const CATASTROPHIC: readonly [string, string, string][] = [
  ['^/(a+)+$', '/aaaa', `/${'a'.repeat(40)}!`], // exponential: 2^40 ways to split the a's
  ['^/(a|a)*$', '/aaaa', `/${'a'.repeat(40)}!`], // exponential, yet "safe" to star-height checks
  ['^(.*a){12}$', `/${'a'.repeat(12)}`, `/${'a'.repeat(2000)}!`], // polynomial, n^12
];

describe('fault patterns a backtracking engine would never finish', () => {
  for (const [pattern, matching, hostile] of CATASTROPHIC) {
    it(`${pattern}: the hostile path is answered, and the pattern still matches what it should`, async () => {
      expect((await addFault(pattern)).status).toBe(201);
      expect((await get(hostile)).status).toBe(404); // no such route, and no fault
      expect((await get(matching)).status).toBe(503); // the fault, as before
      expect((await emulatorControl(url, 'DELETE', '/_emulator/faults')).status).toBe(204);
    });
  }

  it('keeps globs and the patterns the suites use working', async () => {
    const P = '/auth/v1/projects/';
    for (const pattern of [
      '/auth/v1/projects/*',
      '/auth/**',
      '^/(apis|auth|v2)/.*',
      '^/auth/v1/pro',
    ]) {
      expect((await addFault(pattern)).status, pattern).toBe(201);
      expect((await get(P)).status, pattern).toBe(503);
      await emulatorControl(url, 'DELETE', '/_emulator/faults');
    }
    expect((await get(P)).status).toBe(200);
  });

  it('refuses, naming the field, a pattern the linear-time engine cannot run or one too long', async () => {
    for (const pattern of ['^/(?=apis)', '^/(a)\\1$', `^/${'a'.repeat(1001)}`]) {
      const r = await addFault(pattern);
      expect(r.status, pattern).toBe(400);
      const body = (await r.json()) as { message: string; details: { field: string }[] };
      expect(body.message).toMatch(/^path is not a valid pattern/);
      expect(body.details[0]!.field).toBe('path');
    }
  });
});
