import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSession, sessionConfig } from '../../src/state/pg/session.js';
import { parsePostgresTarget } from '../../src/state/pg/target.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';

// A lock session is shared by its pings, lease renewals and shard queries, which may overlap.
// pg queues a query sent while another runs and warns that it will stop doing so (pg 9); the
// session chains them itself, in the order they were sent.
describe.skipIf(!postgresUrl)('a lock session', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await testSchema('pgsession');
  });
  afterAll(async () => schema?.drop());

  it('runs overlapping queries one after another, in order, without pg queueing them', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const target = parsePostgresTarget(schema.url);
    const client = await connectSession(
      sessionConfig(target, { idleInTransactionMs: 10_000, idleSessionMs: 0 }),
      () => {},
    );
    try {
      const order: number[] = [];
      const results = await Promise.all(
        [3, 2, 1].map((n, i) =>
          client
            .query<{ n: number }>(`SELECT pg_sleep($1::float / 100), $2::int AS n`, [n, i])
            .then((r) => {
              order.push(r.rows[0]!.n);
              return r.rows[0]!.n;
            }),
        ),
      );
      expect(results).toEqual([0, 1, 2]);
      expect(order).toEqual([0, 1, 2]);
      const failed = client.query('SELECT no_such_column FROM pg_class LIMIT 1');
      const after = client.query<{ ok: number }>('SELECT 1 AS ok');
      await expect(failed).rejects.toThrow(/no_such_column/);
      expect((await after).rows[0]!.ok).toBe(1);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((m) => /already executing a query/.test(m))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await client.end();
    }
  });
});
