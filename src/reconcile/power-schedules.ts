import type { Action } from '../model/action.js';
import type { PowerScheduleManifest } from '../model/governance-kinds.js';
import {
  KEEP_ON_UNTIL_ANNOTATION,
  type Manifest,
  type ManifestOf,
  manifestKey,
  POWER_ANNOTATION,
} from '../model/manifest.js';
import type { Plan, ScheduledPower } from '../model/plan.js';
import { decidePower, offShare, type PowerDecision, selects } from '../model/power-schedule.js';
import type { PriceFile } from '../model/prices.js';
import { zonedText } from '../model/zoned-time.js';
import { gpusOfSize, sizeOf } from './gpu-count.js';

/** Average hours in a month, as the GPU summary counts them (`gpu.ts`). */
const HOURS_PER_MONTH = 730;

/** The manifests to plan with their schedules applied, and what each schedule wants. */
export interface ScheduledManifests {
  /** The input less the PowerSchedules; each scheduled instance with its power state set. */
  readonly desired: Manifest[];
  /** One per scheduled instance, in manifest order. */
  readonly entries: ScheduledPower[];
}

/**
 * Applies the PowerSchedules among `desired` at `now` (pure): each ComputeInstance a schedule
 * selects gets the power state the schedule wants then as its declared one
 * (`platctl.io/power-state`), so the ComputeInstance provider plans the start or stop, with the
 * same ownership, fencing and rate limits as any power action, and the state store records it as
 * last applied (a manual change inside the period is then drift, as any other). An instance
 * declared off in git stays off: no schedule powers it on. The first schedule selecting an
 * instance wins (validate refuses a second).
 */
export function applySchedules(
  desired: readonly Manifest[],
  now: number,
  prices?: PriceFile,
): ScheduledManifests {
  const schedules = desired.filter((m): m is PowerScheduleManifest => m.kind === 'PowerSchedule');
  const rest = desired.filter((m) => m.kind !== 'PowerSchedule');
  if (schedules.length === 0) return { desired: rest, entries: [] };
  const entries: ScheduledPower[] = [];
  // what a schedule wants depends on the instance only through its exception: the period math
  // (Intl per boundary, several ms) is done once per schedule and exception, not per instance
  const decisions = new Map<string, Decided>();
  const decide = (s: PowerScheduleManifest, keep: number | undefined): Decided => {
    const key = `${s.metadata.name}\0${keep ?? ''}`;
    let d = decisions.get(key);
    if (!d) {
      const share = decisions.get(`${s.metadata.name}\0`)?.share ?? offShare(s.spec, now);
      const decision = decidePower(s.spec, now, keep);
      const next = decision.next.map((t) => ({
        at: new Date(t.at).toISOString(),
        local: zonedText(t.at, s.spec.timeZone),
        state: t.state,
      }));
      d = { decision, share, next };
      decisions.set(key, d);
    }
    return d;
  };
  const out = rest.map((m) => {
    if (m.kind !== 'ComputeInstance') return m;
    if (m.metadata.annotations?.[POWER_ANNOTATION] === 'off') return m;
    const schedule = schedules.find((s) => selects(s.spec.selector, m));
    if (!schedule) return m;
    const entry = scheduled(m, schedule, now, decide, prices);
    entries.push(entry);
    if (entry.state === 'on') return m;
    return {
      ...m,
      metadata: {
        ...m.metadata,
        annotations: { ...m.metadata.annotations, [POWER_ANNOTATION]: 'off' },
      },
    };
  });
  return { desired: out, entries };
}

/** A schedule's decision for one exception (or none), and its off share of the coming week. */
interface Decided {
  readonly decision: PowerDecision;
  readonly share: number;
  readonly next: ScheduledPower['next'];
}

function scheduled(
  m: ManifestOf<'ComputeInstance'>,
  schedule: PowerScheduleManifest,
  now: number,
  decide: (s: PowerScheduleManifest, keep: number | undefined) => Decided,
  prices?: PriceFile,
): ScheduledPower {
  const { spec } = schedule;
  const exception = Date.parse(m.metadata.annotations?.[KEEP_ON_UNTIL_ANNOTATION] ?? '');
  const keep = Number.isFinite(exception) && exception > now ? exception : undefined;
  const { decision, share, next } = decide(schedule, keep);
  const offHours = share * HOURS_PER_MONTH;
  const size = sizeOf(m.spec);
  const gpus = size && gpusOfSize(size, prices);
  const hourly = size && prices?.profiles[size.profile]?.hourly;
  return {
    key: manifestKey(m),
    schedule: manifestKey(schedule),
    timeZone: spec.timeZone,
    state: decision.state,
    why: decision.why,
    ...(keep === undefined ? {} : { keepOnUntil: new Date(keep).toISOString() }),
    next,
    offHoursPerMonth: round(offHours),
    ...(gpus === undefined ? {} : { gpuHoursSavedPerMonth: round(gpus * offHours) }),
    ...(hourly === undefined || !size
      ? {}
      : { costSavedPerMonth: round(size.units * hourly * offHours), currency: prices!.currency }),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * The plan with each scheduled instance's start or stop naming its schedule and why (pure):
 * `... should be powered off, is on (power schedule office-hours: outside its periods until
 * 2026-11-26T08:00+01:00)`.
 */
export function nameSchedules(plan: Plan, entries: readonly ScheduledPower[]): Plan {
  if (entries.length === 0) return plan;
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const actions = plan.actions.map((a): Action => {
    const e = byKey.get(a.key);
    if (!e || a.type !== 'power' || (a.powerAction !== 'start' && a.powerAction !== 'stop')) {
      return a;
    }
    return { ...a, reason: { ...a.reason, message: `${a.reason.message} (${whyText(e)})` } };
  });
  return { ...plan, actions, schedules: entries };
}

/** `power schedule office-hours: inside a period until 2026-11-26T20:00+01:00` (pure). */
export function whyText(e: ScheduledPower): string {
  const name = e.schedule.replace(/^PowerSchedule\//, '');
  const until = e.next[0] ? ` until ${e.next[0].local}` : '';
  const why = {
    period: 'inside a period',
    outside: 'outside its periods',
    'keep-on': `kept on by ${KEEP_ON_UNTIL_ANNOTATION}`,
  }[e.why];
  return `power schedule ${name}: ${why}${until}`;
}
