import { describe, expect, it } from 'vitest';
import { type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';
import { createProviderRegistry } from '../../src/providers/index.js';
import { plan } from '../../src/reconcile/planner.js';
import { applySchedules, nameSchedules } from '../../src/reconcile/power-schedules.js';
import {
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
} from '../../src/reconcile/render/index.js';
import { m } from './manifests.js';

const OFFICE: Manifest = {
  apiVersion: 'platctl.io/v1alpha1',
  kind: 'PowerSchedule',
  metadata: { name: 'office-hours' },
  spec: {
    timeZone: 'Europe/Berlin',
    periods: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', stop: '20:00' }],
    selector: { labels: { team: 'ml' } },
  },
};
const box = m.instance('p', 'w', 'box', { labels: { team: 'ml' } });
const other = m.instance('p', 'w', 'other');
const NIGHT = Date.parse('2026-11-25T21:00Z'); // Wednesday 22:00 in Berlin: off
const DAY = Date.parse('2026-11-25T10:00Z'); // Wednesday 11:00 in Berlin: on

const live = (man: Manifest, powerState: 'on' | 'off'): LiveObject => ({
  key: manifestKey(man),
  ref: { kind: 'ComputeInstance', name: man.metadata.name, project: 'p', workspace: 'w' },
  body: JSON.parse(
    JSON.stringify({ ...man, metadata: { ...man.metadata, annotations: undefined } }),
  ),
  status: 'success',
  powerState,
});

/** The run's planning stage as `reconcile()` does it: schedules applied, planned, named. */
function planAt(
  now: number,
  desired: Manifest[],
  lives: LiveObject[],
  lastApplied = new Map<string, Manifest>(),
) {
  const s = applySchedules(desired, now, {
    currency: 'USD',
    profiles: { 'bmaas-l40s': { hourly: 10, gpus: 8 } },
  });
  const p = plan(s.desired, lives, lastApplied, { providers: createProviderRegistry() });
  return { plan: nameSchedules(p, s.entries), desired: s.desired };
}

const changes = (p: ReturnType<typeof planAt>['plan']) =>
  p.actions.filter((a) => a.type !== 'noop').map((a) => [a.id, a.reason.code, a.reason.message]);

describe('a PowerSchedule at plan', () => {
  it('stops a selected instance outside its periods, naming the schedule; leaves the rest', () => {
    const { plan: p } = planAt(NIGHT, [OFFICE, box, other], [live(box, 'on'), live(other, 'on')]);
    expect(changes(p)).toEqual([
      [
        'ComputeInstance/p/w/box#power',
        'power-state',
        'compute instance p/w/box should be powered off, is on (power schedule office-hours: outside its periods until 2026-11-26T08:00+01:00)',
      ],
    ]);
    expect(p.schedules).toEqual([
      {
        key: 'ComputeInstance/p/w/box',
        schedule: 'PowerSchedule/office-hours',
        timeZone: 'Europe/Berlin',
        state: 'off',
        why: 'outside',
        next: [
          { at: '2026-11-26T07:00:00.000Z', local: '2026-11-26T08:00+01:00', state: 'on' },
          { at: '2026-11-26T19:00:00.000Z', local: '2026-11-26T20:00+01:00', state: 'off' },
        ],
        offHoursPerMonth: 469.29,
        gpuHoursSavedPerMonth: 3754.29,
        costSavedPerMonth: 4692.86,
        currency: 'USD',
      },
    ]);
  });

  it('starts it inside a period, and sends nothing when it already is as wanted', () => {
    expect(changes(planAt(DAY, [OFFICE, box], [live(box, 'off')]).plan)).toEqual([
      [
        'ComputeInstance/p/w/box#power',
        'power-state',
        expect.stringMatching(
          /powered on, is off \(power schedule office-hours: inside a period until 2026-11-25T20:00\+01:00\)$/,
        ),
      ],
    ]);
    expect(changes(planAt(DAY, [OFFICE, box], [live(box, 'on')]).plan)).toEqual([]);
    expect(changes(planAt(NIGHT, [OFFICE, box], [live(box, 'off')]).plan)).toEqual([]);
  });

  it('corrects a manual power-on inside an off period as drift', () => {
    // what the last run recorded: the instance as the schedule wanted it then
    const { desired } = planAt(NIGHT, [OFFICE, box], [live(box, 'on')]);
    const recorded = new Map([
      [manifestKey(box), desired.find((d) => d.kind === 'ComputeInstance')!],
    ]);
    const { plan: p } = planAt(NIGHT + 60_000, [OFFICE, box], [live(box, 'on')], recorded);
    expect(changes(p)).toEqual([
      [
        'ComputeInstance/p/w/box#power',
        'drift',
        expect.stringMatching(/outside git\) \(power schedule office-hours/),
      ],
    ]);
  });

  it('keeps an instance on until its exception, and never powers on one declared off', () => {
    const kept = m.instance('p', 'w', 'box', {
      labels: { team: 'ml' },
      annotations: { 'platctl.io/keep-on-until': '2026-11-25T23:30:00+01:00' },
    });
    const k = planAt(NIGHT, [OFFICE, kept], [live(kept, 'on')]).plan;
    expect(changes(k)).toEqual([]);
    expect(k.schedules?.[0]).toMatchObject({
      state: 'on',
      why: 'keep-on',
      keepOnUntil: '2026-11-25T22:30:00.000Z',
      next: [{ at: '2026-11-25T22:30:00.000Z', state: 'off' }, { state: 'on' }],
    });
    const off = m.instance('p', 'w', 'box', {
      labels: { team: 'ml' },
      annotations: { 'platctl.io/power-state': 'off' },
    });
    const o = planAt(DAY, [OFFICE, off], [live(off, 'off')]).plan;
    expect(changes(o)).toEqual([]);
    expect(o.schedules).toBeUndefined();
  });

  it('shows a Schedules section in text, markdown and JSON', () => {
    const { plan: p } = planAt(NIGHT, [OFFICE, box], [live(box, 'on')]);
    const line =
      'ComputeInstance/p/w/box: off now (power schedule office-hours: outside its periods until 2026-11-26T08:00+01:00); next on 2026-11-26T08:00+01:00, off 2026-11-26T20:00+01:00; saves ≈ 3,754.29 GPU-h/month (469.29 h off), 4,692.86 USD/month';
    expect(renderPlanText(p)).toContain(`Schedules:\n  ${line}\n`);
    expect(renderPlanMarkdown(p)).toContain(`**Schedules**\n\n- ${line}\n`);
    expect(JSON.parse(renderPlanJson(p)).schedules[0].next[0].at).toBe('2026-11-26T07:00:00.000Z');
  });
});
