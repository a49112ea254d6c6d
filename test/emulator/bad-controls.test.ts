import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, type Harness, startHarness } from './harness.js';

const WS = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';

describe('bad input to the emulator', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  const control = (method: string, path: string, body?: unknown) =>
    h.call(method, path, body, { key: null });

  it('refuses a clock advance beyond ten years with a 400 and keeps working', async () => {
    const r = await control('POST', '/_emulator/clock/advance', { seconds: 1e15 });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { field: 'seconds', message: expect.stringMatching(/ten years/) },
    ]);
    const created = await h.call('POST', WS, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'after-advance', project: 'platform' },
    });
    expect(created.status).toBe(200);
    expect((await control('POST', '/_emulator/clock/advance', { seconds: 60 })).status).toBe(200);
  });

  it('answers 415 to a body that is not JSON, and stores nothing', async () => {
    const res = await fetch(`${h.emu.url}${WS}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-service-api-keyid': ADMIN_KEY },
      body: JSON.stringify({
        apiVersion: 'paas.envmgmt.io/v1',
        kind: 'Workspace',
        metadata: { name: 'plain-text', project: 'platform' },
      }),
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toContain('text/plain');
    expect((await h.call('GET', `${WS}/plain-text`)).status).toBe(404);
  });

  it('names the path field when a fault pattern is not a valid regular expression', async () => {
    const r = await control('POST', '/_emulator/faults', { path: '^/apis/(unclosed' });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^path is not a valid pattern/);
    expect(r.body.message).not.toContain('malformed JSON');
    expect(r.body.details[0].field).toBe('path');
    expect(
      (await h.call('POST', '/_emulator/faults', undefined, { key: null, raw: '{not json' })).body
        .message,
    ).toBe('malformed JSON body');
  });
});
