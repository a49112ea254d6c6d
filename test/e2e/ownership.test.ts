import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
} from '../../src/reconcile/render/index.js';
import { openStateStore } from '../../src/state/index.js';
import { keyHeaders } from '../helpers/key-header.js';
import { type World, world, writes } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

const KEY = 'Workspace/platform/contested';
const WORKSPACES = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';
const workspace = (displayName: string) => ({
  apiVersion: 'paas.envmgmt.io/v1',
  kind: 'Workspace',
  metadata: { name: 'contested', project: 'platform', displayName },
});

/** A manifests directory holding the named workspaces (the contested one displayed "Ours"). */
function manifests(dir: string, names: readonly ('contested' | 'bystander')[]): string {
  const root = join(dir, 'own');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root);
  for (const name of names) {
    const display = name === 'contested' ? '  displayName: Ours\n' : '';
    writeFileSync(
      join(root, `${name}.yaml`),
      `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ${name}\n  project: platform\n${display}`,
    );
  }
  return root;
}

/** Creates the workspace through the API, as another person or another state store would. */
async function createByOtherParty(): Promise<number> {
  const res = await fetch(`${w.emulator.url}${WORKSPACES}?fail-on-exists=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...keyHeaders(w.apiKey) },
    body: JSON.stringify(workspace('Theirs')),
  });
  await res.text();
  return res.status;
}

/** Resolves once the running apply has listed the workspaces (its create comes next). */
async function observed(): Promise<void> {
  for (;;) {
    if ((await w.journal(0)).some((e) => e.method === 'GET' && e.path === WORKSPACES)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function ownership(key: string, path = join(w.dir, 'state.db')) {
  const store = openStateStore(path);
  try {
    return (await store.inventory()).find((e) => e.key === key)?.createdByPlatctl;
  } finally {
    await store.close();
  }
}

async function pruneLeavesContestedAlone() {
  const before = await w.last();
  const pruned = await w.run({
    mode: 'apply',
    paths: [manifests(w.dir, ['bystander'])],
    prune: true,
  });
  expect(pruned.plan!.actions.filter((a) => a.type === 'delete')).toEqual([]);
  const deletes = writes(await w.journal(before)).filter((e) => e.method === 'DELETE');
  expect(deletes).toEqual([]);
  const live = await fetch(`${w.emulator.url}${WORKSPACES}/contested`, {
    headers: { ...keyHeaders(w.apiKey) },
  });
  expect(live.status).toBe(200);
  return pruned;
}

describe('a create that loses a race to another party', () => {
  it('records the object as found, not created, and never prunes it', async () => {
    const paths = [manifests(w.dir, ['contested'])];
    // platctl's create is held 3 s on the way in; the other party's create lands meanwhile
    await w.fault({ path: WORKSPACES, method: 'POST', latencyMs: 3000, count: 1 });
    const first = w.run({ mode: 'apply', paths });
    await observed();
    await new Promise((r) => setTimeout(r, 300));
    expect(await createByOtherParty()).toBe(200);
    const r1 = await first;
    expect(r1.outcomes?.[`${KEY}#create`]).toMatchObject({ status: 'failed', code: 'exists' });
    expect(await ownership(KEY)).toBe(false);

    // the next run updates the found object to git's form, and says it found it
    const r2 = await w.run({ mode: 'apply', paths });
    expect(r2.status).toBe('applied');
    expect(r2.plan!.found).toEqual([KEY]);
    expect(renderPlanText(r2.plan!)).toContain(
      `found, not created by platctl (never pruned): ${KEY}`,
    );
    expect(renderPlanMarkdown(r2.plan!)).toContain('found, not created by platctl');
    expect(JSON.parse(renderPlanJson(r2.plan!)).found).toEqual([KEY]);
    expect(await ownership(KEY)).toBe(false);

    const pruned = await pruneLeavesContestedAlone();
    expect(pruned.plan!.diagnostics.map((d) => d.message).join('\n')).toContain(
      'removed from git but not created by this state: left on the platform, never pruned',
    );
    expect(pruned.plan!.leftOnPlatform?.keys).toEqual([KEY]);
  });
});

describe('a pending create whose outcome cannot be proven ours', () => {
  it('is recorded as found when the object predates the pending record', async () => {
    expect(await createByOtherParty()).toBe(200);
    // a crashed run left a pending record written after the object already existed
    const store = openStateStore(join(w.dir, 'state.db'));
    await store.beginPending({
      key: KEY,
      actionId: `${KEY}#create`,
      ref: { kind: 'Workspace', project: 'platform', name: 'contested' },
      startedAt: Date.now() + 60_000,
    });
    await store.close();
    const paths = [manifests(w.dir, ['contested', 'bystander'])];
    const r = await w.run({ mode: 'apply', paths });
    expect(r.status).toBe('applied');
    expect(w.events).not.toContainEqual({ type: 'adopted', key: KEY });
    expect(await ownership(KEY)).toBe(false);
    await pruneLeavesContestedAlone();
  });
});

describe('two state stores on one platform', () => {
  it('never both claim an object: the second finds what the first created', async () => {
    const paths = [manifests(w.dir, ['contested', 'bystander'])];
    expect((await w.run({ mode: 'apply', paths })).status).toBe('applied');
    expect(await ownership(KEY)).toBe(true);
    // a second state store (another checkout, another controller) with the same manifests
    const other = join(w.dir, 'other.db');
    const second = await w.run({ mode: 'apply', paths }, { statePath: other });
    expect(second.plan!.found).toEqual(['Workspace/platform/bystander', KEY]);
    expect(await ownership('Workspace/platform/bystander', other)).toBe(false);
    expect(await ownership(KEY, other)).toBe(false);
  });
});
