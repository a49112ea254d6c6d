import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, type Harness, startHarness } from '../emulator/harness.js';
import { keyHeaders } from '../helpers/key-header.js';

// Bodies a careless or hostile client sends, over real HTTP to the emulator on loopback: bytes
// that are not UTF-8, and JSON declared in another charset. Neither may be stored.
const WS = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** Sends raw bytes as a workspace create with the given content type. */
async function postBytes(body: Uint8Array, contentType: string): Promise<Response> {
  return fetch(`${h.emu.url}${WS}`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...keyHeaders(ADMIN_KEY) },
    body,
  });
}

function workspace(name: string, description: string): string {
  return JSON.stringify({
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Workspace',
    metadata: { name, project: 'platform', description },
  });
}

describe('request bodies that are not UTF-8 JSON', () => {
  it('refuses a body holding a byte that is not UTF-8 with 400 naming the byte, and stores nothing', async () => {
    const text = Buffer.from(workspace('bad-bytes', 'caf?'), 'utf8');
    const body = Buffer.concat([text.subarray(0, text.indexOf('?')), Buffer.from([0xff])]);
    const rest = text.subarray(text.indexOf('?') + 1);
    const res = await postBytes(Buffer.concat([body, rest]), 'application/json');
    expect(res.status).toBe(400);
    const error = (await res.json()) as { code: string; message: string; details: unknown[] };
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe('request body is not valid UTF-8');
    expect(error.details).toEqual([
      { field: 'body', message: `byte ${text.indexOf('?')} is not valid UTF-8` },
    ]);
    expect((await h.call('GET', `${WS}/bad-bytes`)).status).toBe(404);
  });

  it('refuses a truncated multi-byte sequence too (a lone lead byte at the end)', async () => {
    const res = await postBytes(
      Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xe2, 0x82])]),
      'application/json',
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'request body is not valid UTF-8',
    );
  });

  it('keeps accepting real UTF-8 (accents, emoji, U+FFFD itself)', async () => {
    const res = await postBytes(
      Buffer.from(workspace('good-bytes', 'café 🚀 \uFFFD'), 'utf8'),
      'application/json',
    );
    expect(res.status).toBe(200);
    const got = await h.call('GET', `${WS}/good-bytes`);
    expect(got.body.metadata.description).toBe('café 🚀 \uFFFD');
  });

  it('answers 415 with Accept to JSON declared in a charset other than UTF-8, and stores nothing', async () => {
    const body = Buffer.from(`\uFEFF${workspace('utf16', 'x')}`, 'utf16le');
    const res = await postBytes(body, 'application/json; charset=utf-16');
    expect(res.status).toBe(415);
    expect(res.headers.get('accept')).toBe('application/json');
    const error = (await res.json()) as { message: string; details: unknown[] };
    expect(error.message).toBe('charset utf-16 is not supported; send JSON as UTF-8');
    expect(error.details).toEqual([{ field: 'content-type', message: 'charset must be utf-8' }]);
    expect((await h.call('GET', `${WS}/utf16`)).status).toBe(404);
    const latin = await postBytes(
      Buffer.from(workspace('latin1', 'x')),
      'application/merge-patch+json; charset="ISO-8859-1"',
    );
    expect(latin.status).toBe(415);
  });

  it('accepts charset=utf-8 however it is spelled', async () => {
    for (const [i, type] of [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/json; charset="utf-8"',
    ].entries()) {
      const res = await postBytes(Buffer.from(workspace(`spelled-${i}`, 'x')), type);
      expect(res.status, type).toBe(200);
    }
  });

  it('refuses bytes that are not UTF-8 in a test control body as well', async () => {
    const res = await fetch(`${h.emu.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-emulator-admin': '1' },
      body: Buffer.concat([
        Buffer.from('{"path":"/apis/'),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from('"}'),
      ]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'request body is not valid UTF-8',
    );
  });
});
