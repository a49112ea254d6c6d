import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/model/api-errors.js';
import { profileDiagnostics } from '../../src/reconcile/dialect-checks.js';
import { act, instance, loaded } from '../providers/fixtures.js';

const m = loaded(instance());
const create = act({
  type: 'create',
  key: m.key,
  target: { kind: 'ComputeInstance', name: 'x' },
  reason: { code: 'absent', message: 'x' },
} as never);
const byKey = new Map([[m.key, m]]);

describe('the profile check before a create', () => {
  it('is an error at the line when the project is not offered the profile', async () => {
    const d = await profileDiagnostics(
      [{ ...create, key: m.key }],
      byKey,
      async () => new Set(['other']),
    );
    expect(d).toMatchObject([
      { severity: 'error', message: expect.stringMatching(/is not offered/) },
    ]);
  });

  it('is a warning, not a failed run, when the profiles cannot be read for a passing reason', async () => {
    const down = async (): Promise<ReadonlySet<string>> => {
      throw new ApiError(
        500,
        'listing the compute profiles of project p',
        { message: 'injected fault 500' },
        [],
      );
    };
    const d = await profileDiagnostics([{ ...create, key: m.key }], byKey, down);
    expect(d).toMatchObject([
      { severity: 'warning', message: expect.stringMatching(/not checked.*500/) },
    ]);
  });
});
