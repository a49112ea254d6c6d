import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allHandlers } from '../../src/emulator/handlers.js';
import { Router } from '../../src/emulator/http/router.js';
import { ApiError } from '../../src/emulator/http/types.js';
import { checkHandlers } from '../../src/emulator/openapi/check-handlers.js';
import {
  listOperations,
  loadDocument,
  mergeFragment,
  type OpenApiDocument,
  resolveRef,
} from '../../src/emulator/openapi/load-document.js';
import { ADMIN_KEY, type Harness, startHarness } from './harness.js';

describe('the OpenAPI document and its handlers', () => {
  it('pairs every operationId with exactly one handler and every handler with an operation', () => {
    const ops = listOperations(loadDocument());
    expect(ops.length).toBeGreaterThanOrEqual(20);
    expect(checkHandlers(ops, allHandlers)).toEqual([]);
    expect(checkHandlers(ops, { ...allHandlers, ghost: () => ({ status: 200 }) })).toEqual([
      'handler ghost matches no operation of the OpenAPI document',
    ]);
    const { listProjects: _omit, ...rest } = allHandlers;
    expect(checkHandlers(ops, rest)[0]).toMatch(/listProjects/);
  });

  it('is a well-formed document: every $ref resolves, every operation documents its responses', () => {
    const doc = loadDocument();
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) walk(n, `${at}[${i}]`);
        return;
      }
      if (node === null || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        expect(k, at).not.toBe('<<');
        if (k === '$ref') expect(() => resolveRef(doc, node), `${at}.$ref`).not.toThrow();
        else walk(v, `${at}.${k}`);
      }
    };
    walk(doc, '');
    for (const op of listOperations(doc)) {
      const responses = op.op.responses as Record<string, { description?: string; $ref?: string }>;
      expect(Object.keys(responses).length, op.operationId).toBeGreaterThan(0);
      for (const r of Object.values(responses))
        expect(r.description ?? r.$ref, op.operationId).toBeTruthy();
      expect((op.op.security as unknown[]).length, op.operationId).toBeGreaterThan(0);
    }
  });

  it('refuses a fragment that repeats an operation or a schema', () => {
    const doc = { openapi: '3.1.0', info: {}, paths: {}, components: {} } as OpenApiDocument;
    mergeFragment(
      doc,
      { paths: { '/a': { get: { operationId: 'a' } } }, components: { schemas: { A: {} } } },
      'one.yaml',
    );
    expect(() =>
      mergeFragment(doc, { paths: { '/a': { get: { operationId: 'b' } } } }, 'two.yaml'),
    ).toThrow(/duplicate operation get \/a/);
    expect(() => mergeFragment(doc, { components: { schemas: { A: {} } } }, 'two.yaml')).toThrow(
      /duplicate component schemas.A/,
    );
  });

  it('matches templates, ignores trailing slashes and percent-decodes parameters', () => {
    const router = new Router(listOperations(loadDocument()));
    const m = router.match('POST', '/v2/config/project/prj-1/blueprint/my%20bp/version/v1/enable/');
    expect(m).toMatchObject({
      kind: 'found',
      params: { project_id: 'prj-1', blueprint_id: 'my bp', version_name: 'v1' },
    });
    expect(router.match('PUT', '/auth/v1/users')).toMatchObject({ kind: 'method-not-allowed' });
    expect(router.match('GET', '/auth/v1/nothing')).toEqual({ kind: 'not-found' });
  });
});

describe('the HTTP framework', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      groups: { infra: 'infra.example.io' },
      handlers: {
        ...allHandlers,
        listProjects: () => {
          throw new Error(`boom with ${ADMIN_KEY}`);
        },
        listUsers: () => {
          throw new ApiError(409, 'conflict', 'custom');
        },
      },
    });
  });
  afterAll(() => h.close());

  it('answers 404 for unknown routes and 405 for a wrong method', async () => {
    const notFound = await h.call('GET', '/apis/unknown');
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ status: 404, code: 'not_found' });
    const wrong = await h.call('PUT', '/auth/v1/users/');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
  });

  it('turns a thrown error into a bare 500 and an ApiError into its body', async () => {
    const r = await h.call('GET', '/auth/v1/projects/');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ status: 500, code: 'internal', message: 'internal server error' });
    expect(r.text).not.toContain('boom');
    expect(r.text).not.toContain(ADMIN_KEY);
    expect((await h.call('GET', '/auth/v1/users/')).body).toEqual({
      status: 409,
      code: 'conflict',
      message: 'custom',
    });
  });

  it('serves clusters under the configured infra group only', async () => {
    const moved = await h.call(
      'GET',
      '/apis/infra.example.io/v3/projects/platform/clusters',
      undefined,
      { header: 'X-API-KEY' },
    );
    expect(moved.status).toBe(200);
    expect(moved.body.apiVersion).toBe('infra.example.io/v3');
    expect(
      (
        await h.call('GET', '/apis/infra.k8smgmt.io/v3/projects/platform/clusters', undefined, {
          header: 'X-API-KEY',
        })
      ).status,
    ).toBe(404);
  });

  it('serves the merged document with its own URL as server, and the docs page from local assets', async () => {
    const doc = await h.call('GET', '/openapi.json', undefined, { key: null });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.servers).toEqual([{ url: h.emu.url }]);
    expect(Object.keys(doc.body.paths)).toContain(
      '/apis/infra.example.io/v3/projects/{project}/clusters',
    );
    expect(Object.keys(doc.body.paths)).toContain('/auth/v1/users/{accountId}/assigntoproject/');
    expect(doc.body.components.securitySchemes.apiKey).toMatchObject({
      in: 'header',
      name: 'X-API-KEY',
    });
    const page = await h.call('GET', '/docs', undefined, { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('/openapi.json');
    expect(page.text).not.toMatch(/https?:\/\//);
    for (const asset of page.text.match(/\/docs\/[\w.-]+/g) ?? []) {
      const r = await fetch(h.emu.url + asset);
      expect(r.status, asset).toBe(200);
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect(
      (await h.call('GET', '/docs/../package.json', undefined, { key: null })).status,
    ).not.toBe(200);
  });
});
