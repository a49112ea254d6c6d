import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/model/action.js';
import type { ChangeWindowManifest } from '../../src/model/governance-kinds.js';
import type { LoadedManifest } from '../../src/model/manifest.js';
import type { Plan } from '../../src/model/plan.js';
import { applyWindows } from '../../src/reconcile/change-windows.js';
import { isOpen } from '../../src/reconcile/window-time.js';

type Spec = ChangeWindowManifest['spec'];

function window(name: string, spec: Spec): LoadedManifest {
  return {
    manifest: {
      apiVersion: 'platctl.io/v1alpha1',
      kind: 'ChangeWindow',
      metadata: { name },
      spec,
    },
    key: `ChangeWindow/${name}`,
    source: { file: 'w.yaml', line: 1, col: 1 },
    positionOf: () => ({ file: 'w.yaml', line: 1, col: 1 }),
  } as LoadedManifest;
}

function action(type: 'delete' | 'create' | 'update', name: string, dependsOn: string[] = []) {
  const key = `Workspace/ml/${name}`;
  return {
    id: `${key}#${type}`,
    key,
    type,
    target: { kind: 'Workspace', name, project: 'ml' },
    reason: { code: 'absent', message: '' },
    changes: [],
    dependsOn,
  } as unknown as Action;
}

const plan = (actions: Action[]): Plan => ({ formatVersion: 1, actions, diagnostics: [] });

const weekdays: Spec = {
  window: 'allow',
  actions: ['delete'],
  timeZone: 'Europe/Berlin',
  periods: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '09:00', stop: '17:00' }],
};

describe('change windows', () => {
  it('reads periods on the wall clock of their time zone, across midnight too', () => {
    // Wednesday 2026-11-25: 08:30 UTC is 09:30 in Berlin (UTC+1)
    expect(isOpen(weekdays, Date.parse('2026-11-25T08:30:00Z'))).toBe(true);
    expect(isOpen(weekdays, Date.parse('2026-11-25T07:30:00Z'))).toBe(false);
    expect(isOpen(weekdays, Date.parse('2026-11-28T10:00:00Z'))).toBe(false); // Saturday
    const night: Spec = {
      ...weekdays,
      timeZone: 'UTC',
      periods: [{ days: ['Fri'], start: '22:00', stop: '02:00' }],
    };
    expect(isOpen(night, Date.parse('2026-11-27T23:00:00Z'))).toBe(true); // Friday night
    expect(isOpen(night, Date.parse('2026-11-28T01:00:00Z'))).toBe(true); // Saturday morning
    expect(isOpen(night, Date.parse('2026-11-28T23:00:00Z'))).toBe(false);
  });

  it('holds a delete outside its allow window until it opens, with what waits on it', () => {
    const now = Date.parse('2026-11-28T10:00:00Z'); // Saturday
    const out = applyWindows(
      plan([
        action('delete', 'old'),
        action('create', 'new'),
        action('update', 'after', ['Workspace/ml/old#delete']),
      ]),
      { manifests: [window('weekdays', weekdays)], now, mode: 'hold' },
    );
    expect(out.actions.map((a) => a.id)).toEqual(['Workspace/ml/new#create']);
    expect(out.holds).toEqual([
      {
        action: 'Workspace/ml/old#delete',
        key: 'Workspace/ml/old',
        class: 'delete',
        window: 'ChangeWindow/weekdays',
        until: '2026-11-30T08:00:00.000Z', // Monday 09:00 in Berlin
        outcome: 'held',
      },
    ]);
    expect(out.diagnostics.map((d) => d.message)).toEqual([
      'delete held by change window ChangeWindow/weekdays until 2026-11-30T08:00:00.000Z',
      'held: depends on Workspace/ml/old, which a change window holds; update not planned',
    ]);
  });

  it('a deny window wins over an open allow window, until it closes', () => {
    const now = Date.parse('2026-12-24T10:00:00Z'); // a Thursday, inside the allow window
    const freeze = window('freeze', {
      window: 'deny',
      actions: ['delete', 'create'],
      projects: ['ml'],
      timeZone: 'UTC',
      dates: [{ from: '2026-12-24', to: '2026-12-26' }],
    });
    const out = applyWindows(plan([action('delete', 'old')]), {
      manifests: [window('weekdays', weekdays), freeze],
      now,
      mode: 'refuse',
    });
    expect(out.holds[0]).toMatchObject({
      window: 'ChangeWindow/freeze',
      until: '2026-12-28T08:00:00.000Z', // the freeze ends Sunday; deletes allowed from Monday 09:00
      outcome: 'refused',
    });
    expect(out.diagnostics[0]?.severity).toBe('error');
    const forced = applyWindows(plan([action('delete', 'old')]), {
      manifests: [freeze],
      now,
      mode: 'refuse',
      outsideWindow: 'INC-1',
    });
    expect(forced.holds[0]).toMatchObject({ outcome: 'overridden', reason: 'INC-1' });
    expect(forced.diagnostics[0]?.severity).toBe('warning');
  });

  it('leaves actions of other projects and classes alone', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    const other = window('other', { ...weekdays, projects: ['prod'] });
    const out = applyWindows(plan([action('delete', 'old'), action('update', 'x')]), {
      manifests: [other],
      now,
      mode: 'hold',
    });
    expect(out.holds).toEqual([]);
    expect(out.actions).toHaveLength(2);
  });
});
