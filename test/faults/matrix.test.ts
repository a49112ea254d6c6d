import { afterAll, describe, expect, it } from 'vitest';
import { world } from '../e2e/harness.js';
import { applyUntilSettled, audit, type Figures, plantFound, table } from './invariants.js';

/**
 * The fault matrix: the examples applied against the real emulator over loopback while it
 * injects failures into reads and writes. Each cell must converge within 3 apply runs, create
 * nothing twice, lose nothing, and delete nothing this state did not create.
 */
const API = '^/(apis|auth|v2)/.*';
const CELLS: readonly { name: string; faults: Record<string, unknown>[] }[] = [
  { name: '500 on 30% of reads', faults: [{ path: API, method: 'GET', status: 500, rate: 0.3 }] },
  {
    name: '500 on 25% of writes',
    faults: [
      { path: API, method: 'POST', status: 500, rate: 0.25 },
      { path: API, method: 'DELETE', status: 500, rate: 0.25 },
    ],
  },
  {
    name: '429 + Retry-After on reads and writes',
    faults: [{ path: API, status: 429, retryAfter: 1, count: 4 }],
  },
  { name: 'latency 0-150 ms on 40%', faults: [{ path: API, latencyMs: 150, rate: 0.4 }] },
  {
    name: 'dropped connections on reads and writes',
    faults: [
      { path: API, method: 'POST', drop: true, count: 5 },
      { path: API, method: 'GET', drop: true, rate: 0.1 },
    ],
  },
  {
    name: 'all of the above at once',
    faults: [
      { path: API, status: 500, rate: 0.1 },
      { path: API, status: 429, retryAfter: 0, rate: 0.1 },
      { path: API, latencyMs: 20, rate: 0.2 },
      { path: API, method: 'POST', drop: true, count: 4 },
    ],
  },
];

const figures: Figures[] = [];
afterAll(() => {
  console.log(`fault matrix\n${table(figures)}`);
});

describe('fault matrix against the emulator', () => {
  for (const cell of CELLS) {
    it(cell.name, async () => {
      const w = await world();
      try {
        await plantFound(w);
        for (const f of cell.faults) await w.fault(f);
        const runs = await applyUntilSettled(w);
        const f = await audit(w, cell.name, runs);
        figures.push(f);
        expect(f).toMatchObject({ duplicates: 0, lost: 0, foreignDeletes: 0 });
        expect(f.runs).toBeLessThanOrEqual(3);
        expect(f.injected).toBeGreaterThan(cell.name.startsWith('latency') ? -1 : 0);
      } finally {
        await w.close();
      }
    }, 60_000);
  }
});
