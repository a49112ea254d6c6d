import type { Clock } from '../../src/core/clock.js';
import type { Action, ActionType } from '../../src/model/action.js';
import type { Plan } from '../../src/model/plan.js';

/** A clock that only moves when told. */
export function fakeClock(start = 0): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/** A bare action for executor and ordering tests. */
export function act(
  id: string,
  dependsOn: string[] = [],
  type: ActionType = 'update',
  extra: Record<string, unknown> = {},
): Action {
  const key = id.split('#')[0]!;
  const [kind, ...rest] = key.split('/');
  return {
    id,
    key,
    type,
    target: { kind: kind as Action['target']['kind'], name: rest.at(-1) ?? key },
    reason: { code: 'changed', message: 'test' },
    changes: [],
    dependsOn,
    ...extra,
  } as Action;
}

export function planOf(actions: Action[]): Plan {
  return { formatVersion: 1, actions, diagnostics: [] };
}

/** A promise with its resolve and reject exposed. */
export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
