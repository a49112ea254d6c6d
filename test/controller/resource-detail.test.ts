import { describe, expect, it } from 'vitest';
import type { ControllerControls } from '../../src/controller/http/controls.js';
import { resourceDetail } from '../../src/controller/http/resource-route.js';
import type { ResourceCondition } from '../../src/controller/status/conditions.js';
import { type ControllerStatus, initialStatus } from '../../src/controller/status/status.js';

const KEY = 'Workspace/platform/shared-services';

function condition(c: 'Ready' | 'Drifted'): ResourceCondition {
  return {
    key: KEY,
    kind: 'Workspace',
    project: 'platform',
    name: 'shared-services',
    condition: c,
    reason: c === 'Ready' ? 'InSync' : 'Drift',
    lastTransitionTime: c === 'Ready' ? '2026-11-28T10:00:00Z' : '2026-11-28T10:05:00Z',
    order: 0,
    dependsOn: [],
  };
}

/**
 * `resourceDetail` on controls whose platform read is slow: `change` replaces the status while
 * that read is out (a run ended meanwhile), then the read answers; resolves to the answer's
 * resource condition.
 */
async function conditionAfter(change: (s: ControllerStatus) => ControllerStatus) {
  let status: ControllerStatus = {
    ...initialStatus('fake', { suspended: false, dryRun: false, selfHeal: true }),
    conditions: [condition('Ready')],
  };
  let answerLive: (v: undefined) => void = () => {};
  const controls = {
    get status() {
      return status;
    },
    desired: async () => undefined,
    source: async () => undefined,
    runs: async () => [],
    loaded: async () => [],
    live: () => new Promise<undefined>((resolve) => (answerLive = resolve)),
  } as unknown as ControllerControls;
  const answer = resourceDetail({ controls, now: () => Date.now() }, KEY);
  await new Promise((r) => setImmediate(r));
  status = change(status);
  answerLive(undefined);
  const detail = await answer;
  return (detail?.resource as ResourceCondition | undefined)?.condition;
}

describe('resourceDetail', () => {
  it('answers with the condition as it is when its reads end, not as it was when they began', async () => {
    expect(await conditionAfter((s) => ({ ...s, conditions: [condition('Drifted')] }))).toBe(
      'Drifted',
    );
  });

  it('still answers for a resource a run dropped from the status while its reads were out', async () => {
    expect(await conditionAfter((s) => ({ ...s, conditions: [] }))).toBe('Ready');
  });
});
