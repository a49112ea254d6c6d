import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedHeaders } from '../../src/emulator/http/auth.js';
import type { PermissionRule } from '../../src/emulator/http/permissions.js';
import { listOperations, loadDocument } from '../../src/emulator/openapi/load-document.js';
import { ADMIN_KEY, type Harness, startHarness } from './harness.js';

const doc = loadDocument();
const operations = listOperations(doc);
const ALL_HEADERS = ['x-api-key', 'x-service-api-keyid'];

/** A body for methods that carry one. */
const bodyFor = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : {});

/** The path with every parameter filled: projects by name or id as the rule says, others dummy. */
function concrete(path: string, rule: PermissionRule | undefined): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (rule?.scope === 'project' && rule.param === name)
      return rule.by === 'id' ? 'prj-platform' : 'platform';
    return name === 'action' ? 'start' : 'x';
  });
}

describe('auth and permission over every operation of the document', () => {
  let h: Harness;
  let noRoleKey: string;
  beforeAll(async () => {
    h = await startHarness();
    noRoleKey = (await h.newUser('table@acme.example')).key;
  });
  afterAll(() => h.close());

  it('answers 401 without a key, and with a key in a header the operation does not accept', async () => {
    for (const op of operations) {
      const rule = op.op['x-emulator-permission'] as PermissionRule | undefined;
      const path = concrete(op.path, rule);
      const none = await h.call(op.method, path, bodyFor(op.method), { key: null });
      expect(none.status, `${op.operationId} without key`).toBe(401);
      const accepted = acceptedHeaders(doc, op);
      expect(accepted.length, op.operationId).toBeGreaterThan(0);
      for (const header of ALL_HEADERS.filter((x) => !accepted.includes(x))) {
        const wrong = await h.call(op.method, path, bodyFor(op.method), { key: ADMIN_KEY, header });
        expect(wrong.status, `${op.operationId} with ${header}`).toBe(401);
      }
    }
  });

  it('answers 403 to a user without a role on every project- and org-scoped operation', async () => {
    let checked = 0;
    for (const op of operations) {
      const rule = op.op['x-emulator-permission'] as PermissionRule | undefined;
      if (!rule) continue;
      const header = acceptedHeaders(doc, op)[0]!;
      const r = await h.call(op.method, concrete(op.path, rule), bodyFor(op.method), {
        key: noRoleKey,
        header,
      });
      expect(r.status, op.operationId).toBe(403);
      expect(r.body.code).toBe('forbidden');
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it('uses v3 headers exactly as the assumptions table says', () => {
    const byId = new Map(operations.map((o) => [o.operationId, acceptedHeaders(doc, o).sort()]));
    expect(byId.get('listClusters')).toEqual(['x-api-key']);
    expect(byId.get('updateControllerDeployment')).toEqual(ALL_HEADERS);
    expect(byId.get('listProjects')).toEqual(ALL_HEADERS);
    expect(byId.get('forceSyncBlueprint')).toEqual(ALL_HEADERS);
  });
});
