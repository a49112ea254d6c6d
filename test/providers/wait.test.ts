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
