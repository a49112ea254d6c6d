import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShardCoordinator, type ShardCoordinator } from '../../src/state/index.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';

describe.skipIf(!postgresUrl)('the request budget sharded replicas share', () => {
  let schema: TestSchema;
  const replicas: ShardCoordinator[] = [];
  beforeAll(async () => {
    schema = await testSchema('rate_budget');
    for (const id of ['a', 'b', 'c']) {
      replicas.push(await openShardCoordinator(schema.url, { replica: { id, pid: 1, host: 't' } }));
    }
  });
  afterAll(async () => {
    for (const r of replicas) await r.close();
    await schema?.drop();
  });

  it('never reserves two starts closer than the spacing, however many replicas ask at once', async () => {
    const spacing = 25;
    const all = await Promise.all(
      Array.from({ length: 60 }, (_, i) => replicas[i % 3]!.reserve(spacing)),
    );
    const slots = all.map((r) => r.slotMs).sort((x, y) => x - y);
    const gaps = slots.slice(1).map((s, i) => s - slots[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(spacing - 1e-6);
    // asked at once, the reservations queue up: most wait, each for its own slot
    expect(all.filter((r) => r.slotMs > r.nowMs).length).toBeGreaterThan(30);
    await expect(replicas[0]!.reserve(0)).rejects.toThrow(TypeError);
  });
});
