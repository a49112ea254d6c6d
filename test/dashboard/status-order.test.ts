import { describe, expect, it } from 'vitest';
import { statusOrder } from '../../web/src/lib/status-order.js';

describe('statusOrder', () => {
  it('refuses a read whose answer comes after a status the stream delivered meanwhile', () => {
    const order = statusOrder();
    const stale = order.read();
    order.streamed(); // the stream's status is at least as new as the read's
    expect(stale()).toBe(false);
    const fresh = order.read(); // started after: nothing streamed since
    expect(fresh()).toBe(true);
  });

  it('takes every read while nothing streams (the page polls)', () => {
    const order = statusOrder();
    const reads = [order.read(), order.read(), order.read()];
    expect(reads.map((ok) => ok())).toEqual([true, true, true]);
  });
});
