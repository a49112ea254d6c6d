import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/model/api-errors.js';
import type { ProviderPorts } from '../../src/model/provider.js';
import { type Poll, waitUntil } from '../../src/providers/support/wait.js';
import { fakeClock } from '../reconcile/helpers.js';

function ports(timeoutMs: number): ProviderPorts {
  return {
    clock: fakeClock(),
    signal: new AbortController().signal,
    progress: () => {},
    wait: { pollMs: 1000, timeoutMs },
  } as unknown as ProviderPorts;
}

const boom = (status: number) => new ApiError(status, 'reading VPC p/v', { message: 'boom' }, []);

describe('waiting for an asynchronous operation', () => {
  it('keeps waiting through a 500 on a look, until the operation is done', async () => {
    const looks: (Poll | Error)[] = [
      { done: false, status: 'deploying' },
      boom(500),
      boom(503),
      { done: true, status: 'deployed' },
    ];
    let n = 0;
    await waitUntil(ports(60_000), 'VPC p/v', async () => {
      const next = looks[n++]!;
      if (next instanceof Error) throw next;
      return next;
    });
    expect(n).toBe(4);
  });

  it('fails at its deadline, naming the last error, and at once on a 4xx', async () => {
    await expect(
      waitUntil(ports(5_000), 'VPC p/v', async () => {
        throw boom(500);
      }),
    ).rejects.toMatchObject({ code: 'timeout', message: expect.stringContaining('500') });
    await expect(
      waitUntil(ports(5_000), 'VPC p/v', async () => {
        throw boom(403);
      }),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe('the expected time of a wait', () => {
  it("gives each progress line the platform's typical duration of the transition waited for", async () => {
    const seen: [string, number | undefined][] = [];
    const p = { ...ports(60_000), progress: (m: string, e?: number) => seen.push([m, e]) };
    const looks: Poll[] = [
      { done: false, status: 'provisioning' },
      { done: true, status: 'success' },
    ];
    let n = 0;
    await waitUntil(p, 'compute instance p/w/i', async () => looks[n++]!, 'compute-provision');
    await waitUntil(p, 'power on of compute instance p/w/i', async () => ({
      done: n++ > 2,
      status: 'off',
    }));
    expect(seen).toEqual([
      ['waiting for compute instance p/w/i: provisioning, 0s', 300_000],
      ['waiting for power on of compute instance p/w/i: off, 0s', undefined],
    ]);
  });
});
