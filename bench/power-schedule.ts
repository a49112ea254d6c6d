/**
 * What power schedules cost a plan (issue 25): N compute instances, every one selected by one
 * PowerSchedule of five periods in Europe/Berlin (every 20th with a keep-on-until exception), run
 * through `applySchedules` (selection, the period math on Intl, savings) and, for scale, through
 * the pure planner against an empty platform. Prints the median of `--runs` timings of each.
 *
 *   npx tsx bench/power-schedule.ts [--instances 10000] [--runs 5]
 */
import { parseArgs } from 'node:util';
import type { Manifest } from '../src/model/manifest.js';
import { createProviderRegistry } from '../src/providers/index.js';
import { plan } from '../src/reconcile/planner.js';
import { applySchedules } from '../src/reconcile/power-schedules.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
  },
});
const total = Number(values.instances);
const runs = Number(values.runs);

const SCHEDULE: Manifest = {
  apiVersion: 'platctl.io/v1alpha1',
  kind: 'PowerSchedule',
  metadata: { name: 'office' },
  spec: {
    timeZone: 'Europe/Berlin',
    periods: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'].map((d) => ({
      days: [d as 'Mon'],
      start: '08:00',
      stop: '20:00',
    })),
    selector: { projects: ['ml'] },
  },
};
const instances: Manifest[] = Array.from({ length: total }, (_, i) => ({
  apiVersion: 'paas.envmgmt.io/v1',
  kind: 'ComputeInstance',
  metadata: {
    name: `box-${i}`,
    project: 'ml',
    workspace: `ws-${i % 50}`,
    ...(i % 20 === 0
      ? { annotations: { 'platctl.io/keep-on-until': `2026-11-2${(i % 3) + 6}T22:00:00+01:00` } }
      : {}),
  },
  spec: { computeType: 'baremetal', computeProfile: { name: 'bmaas-h100' }, variables: [] },
}));
const desired = [SCHEDULE, ...instances];
const now = Date.parse('2026-11-25T21:00:00Z');

function median(fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const schedules = median(() => applySchedules(desired, now));
const scheduled = applySchedules(desired, now);
const providers = createProviderRegistry();
const planned = median(() => plan(scheduled.desired, [], new Map(), { providers }));
console.log(
  `${total} instances: applySchedules ${schedules.toFixed(1)} ms, plan ${planned.toFixed(1)} ms (${((100 * schedules) / planned).toFixed(1)} % of plan)`,
);
