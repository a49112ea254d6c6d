import { describe, expect, it } from 'vitest';
import { placesOf, storeFactories } from './factories.js';

describe.each(storeFactories)('controller memory contract: $name', (factory) => {
  const places = placesOf(factory);

  it('keeps the status document across a reopen', async () => {
    const place = await places.place();
    const a = await place.open();
    expect(await a.controllerStatus()).toBeUndefined();
    await a.putControllerStatus({ lastGood: { revision: 'abc' }, rejected: [] });
    await a.putControllerStatus({ lastGood: { revision: 'def' }, rejected: ['x'] });
    await a.close();
    const b = await place.open();
    expect(await b.controllerStatus()).toEqual({ lastGood: { revision: 'def' }, rejected: ['x'] });
  });

  it('keeps the intent document apart from the status document', async () => {
    const place = await places.place();
    const a = await place.open();
    expect(await a.controllerIntent()).toBeUndefined();
    await a.putControllerStatus({ version: 1 });
    await a.putControllerIntent({ version: 1, suspended: true });
    await a.close();
    const b = await place.open();
    expect(await b.controllerIntent()).toEqual({ version: 1, suspended: true });
    expect(await b.controllerStatus()).toEqual({ version: 1 });
  });

  it('keeps a bounded run history, newest first, replacing a run by id', async () => {
    const s = await places.open();
    for (let i = 1; i <= 5; i++) await s.appendRun(`run-${i}`, { runId: `run-${i}`, n: i }, 3);
    expect((await s.runs(10)).map((r) => r.runId)).toEqual(['run-5', 'run-4', 'run-3']);
    expect((await s.runs(2)).map((r) => r.runId)).toEqual(['run-5', 'run-4']);
    await s.appendRun('run-5', { runId: 'run-5', n: 50 }, 3);
    expect((await s.runs(1))[0]).toEqual({ runId: 'run-5', n: 50 });
    await expect(s.appendRun('run-6', {}, 0)).rejects.toThrow(TypeError);
  });
});
