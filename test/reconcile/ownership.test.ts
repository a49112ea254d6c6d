import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/model/api-errors.js';
import { createOwnership } from '../../src/providers/support/requests.js';
import { createError } from '../../src/reconcile/ownership.js';
import { createRecorder, type Recorder } from '../../src/reconcile/record.js';
import { openStateStore } from '../../src/state/index.js';
import { act, planOf } from './helpers.js';
import { m } from './manifests.js';

const create = act('Workspace/p/ws#create', [], 'create');

async function recorded(settle: (r: Recorder) => Promise<void> | undefined) {
  const s = openStateStore(':memory:');
  const r = await createRecorder(
    s,
    planOf([create]),
    new Map([['Workspace/p/ws', m.workspace('p', 'ws')]]),
    'run-1',
    () => 5,
  );
  await r.beforeStart(create);
  await settle(r);
  const out = {
    created: (await s.inventory()).map((e) => e.createdByPlatctl),
    pending: (await s.pending()).map((p) => p.key),
  };
  await s.close();
  return out;
}

describe('who made an object', () => {
  it('a 2xx answer to our own create is ours', async () => {
    expect(
      await recorded((r) => r.settled(create, { status: 'succeeded', elapsedMs: 1 }, {})),
    ).toEqual({
      created: [true],
      pending: [],
    });
  });

  it('a create that met an existing object records it as found', async () => {
    const outcome = { status: 'failed', elapsedMs: 1, error: 'exists', code: 'exists' } as const;
    expect(await recorded((r) => r.settled(create, outcome))).toEqual({
      created: [false],
      pending: [],
    });
  });

  it('a create-or-update answered "updated" records the object as found', async () => {
    const found = { ownership: 'found' } as const;
    expect(
      await recorded((r) => r.settled(create, { status: 'succeeded', elapsedMs: 1 }, found)),
    ).toEqual({ created: [false], pending: [] });
  });

  it('a create recovered by an existence check is found until the next run proves it', async () => {
    const unproven = { ownership: 'unproven' } as const;
    expect(
      await recorded((r) => r.settled(create, { status: 'succeeded', elapsedMs: 1 }, unproven)),
    ).toEqual({ created: [false], pending: ['Workspace/p/ws'] });
  });

  it('reads ownership from a create answer', () => {
    const res = (status: number, recovered?: boolean) => ({
      status,
      body: null,
      headers: {},
      ...(recovered ? { recovered } : {}),
    });
    expect(createOwnership(res(201), [200])).toEqual({});
    expect(createOwnership(res(200), [200])).toEqual({ ownership: 'found' });
    expect(createOwnership(res(200))).toEqual({});
    expect(createOwnership(res(200, true))).toEqual({ ownership: 'unproven' });
  });

  it('turns a 409 or already_exists on a create into an exists error, nothing else', () => {
    const conflict = new ApiError(409, 'creating workspace p/ws', { code: 'already_exists' }, []);
    const taken = new ApiError(400, 'creating user a', { code: 'already_exists' }, []);
    const bad = new ApiError(400, 'creating workspace p/ws', { code: 'invalid_request' }, []);
    expect(createError(create, conflict)).toMatchObject({ code: 'exists' });
    expect(createError(create, taken)).toMatchObject({ code: 'exists' });
    expect(createError(create, bad)).toBe(bad);
    const update = act('Workspace/p/ws#update');
    expect(createError(update, conflict)).toBe(conflict);
  });
});
