import type { Action } from '../model/action.js';
import type { PowerScheduleManifest } from '../model/governance-kinds.js';
import {
  type LoadedManifest,
  type Manifest,
  manifestKey,
  POWER_ANNOTATION,
  POWER_RESET_ANNOTATION,
} from '../model/manifest.js';
import type { Plan } from '../model/plan.js';
import { selects } from '../model/power-schedule.js';
import { windowVerdict } from './change-windows.js';

/**
 * What an operator asked for one compute instance through the control API (the controller's
 * intent, kept in the state store): a power state, where git does not pin one, and a reset
 * (a reboot), performed once per new token like `platctl.io/power-reset`.
 */
export interface PowerRequest {
  readonly state?: 'on' | 'off';
  readonly reset?: string;
  /** ISO time of the request, named in the action's reason. */
  readonly at: string;
}

/** The requests by instance key. */
export type PowerRequests = Readonly<Record<string, PowerRequest>>;

/** What git lets an operator do to an instance's power now: `true`, or why not. */
export interface PowerGate {
  /** Power on and off. */
  readonly state: true | string;
  /** Reboot (a `Power reset`). */
  readonly reboot: true | string;
}

/** Where a manifest is written, as a reason names it: `file:line`. */
export type Place = (m: LoadedManifest) => string;

/**
 * Whether git lets an operator power instance `key` on or off, or reboot it, at `now` (pure):
 * the power state only where git pins none (no `platctl.io/power-state` on the manifest, no
 * PowerSchedule selecting it), a reboot only where git does not drive resets itself
 * (`platctl.io/power-reset`), and either only where no ChangeWindow holds power actions for its
 * project now. Undefined: git declares no such ComputeInstance. `at` writes a manifest's place.
 */
export function powerGate(
  manifests: readonly LoadedManifest[],
  key: string,
  now: number,
  at: Place = (m) => `${m.source.file}:${m.source.line}`,
): PowerGate | undefined {
  const found = manifests.find((m) => m.key === key && m.manifest.kind === 'ComputeInstance');
  if (!found) return undefined;
  const m = found.manifest;
  const held = windowVerdict(manifests, 'power', m.metadata.project, now);
  if (held) {
    const until = held.until ? ` until ${held.until}` : '';
    const why = `change window ${held.window} holds power actions${until}`;
    return { state: why, reboot: why };
  }
  const declared = m.metadata.annotations?.[POWER_ANNOTATION];
  const schedule = manifests.find(
    (s): s is LoadedManifest<PowerScheduleManifest> =>
      s.manifest.kind === 'PowerSchedule' && selects(s.manifest.spec.selector, m),
  );
  const state =
    declared !== undefined
      ? `git pins its power state: ${POWER_ANNOTATION}: "${declared}" at ${at(found)}`
      : schedule
        ? `git pins its power state: ${schedule.key} selects it (${at(schedule)})`
        : true;
  const reboot =
    m.metadata.annotations?.[POWER_RESET_ANNOTATION] !== undefined
      ? `git asks for its resets: ${POWER_RESET_ANNOTATION} at ${at(found)}`
      : true;
  return { state, reboot };
}

/**
 * The desired manifests with the operator's requests applied (pure): a requested power state
 * becomes the instance's declared one where git pins none (`scheduled`: the keys a PowerSchedule
 * selects), and a requested reset its `platctl.io/power-reset` where git has none, so the
 * ComputeInstance provider plans the start, stop or reset with the same ownership, fencing,
 * windows and records as any power action, and the next runs keep the state instead of undoing
 * it. Where git pins it since, git wins and the request is ignored.
 */
export function applyPowerRequests(
  desired: readonly Manifest[],
  requests: PowerRequests | undefined,
  scheduled: ReadonlySet<string>,
): Manifest[] {
  if (!requests || Object.keys(requests).length === 0) return [...desired];
  return desired.map((m): Manifest => {
    if (m.kind !== 'ComputeInstance') return m;
    const request = requests[manifestKey(m)];
    if (!request) return m;
    const annotations = { ...m.metadata.annotations };
    const pinned = annotations[POWER_ANNOTATION] !== undefined || scheduled.has(manifestKey(m));
    if (request.state && !pinned) annotations[POWER_ANNOTATION] = request.state;
    if (request.reset && annotations[POWER_RESET_ANNOTATION] === undefined) {
      annotations[POWER_RESET_ANNOTATION] = request.reset;
    }
    return { ...m, metadata: { ...m.metadata, annotations } };
  });
}

/** The plan with each requested power action naming the request (pure). */
export function namePowerRequests(plan: Plan, requests: PowerRequests | undefined): Plan {
  if (!requests) return plan;
  const actions = plan.actions.map((a): Action => {
    const r = requests[a.key];
    if (!r || a.type !== 'power') return a;
    const message = `${a.reason.message} (requested through the control API at ${r.at})`;
    return { ...a, reason: { ...a.reason, message } };
  });
  return { ...plan, actions };
}
