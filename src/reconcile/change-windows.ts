import type { Action } from '../model/action.js';
import type { ChangeWindowManifest, WindowActionClass } from '../model/governance-kinds.js';
import type { LoadedManifest } from '../model/manifest.js';
import type { Plan, PlanDiagnostic, WindowHold } from '../model/plan.js';
import { excludeKeys } from './exclude.js';
import { boundaries, isOpen } from './window-time.js';

/** What checking a plan against its change windows needs besides the plan. */
export interface WindowInput {
  readonly manifests: readonly LoadedManifest[];
  /** Epoch ms: the injected clock's now. */
  readonly now: number;
  /**
   * `hold`: actions outside their window are left out of the run, with what waits on them (the
   * controller); `refuse`: each is a plan error unless `outsideWindow` gives a reason (apply);
   * `show`: each is a warning (plan).
   */
  readonly mode: 'hold' | 'refuse' | 'show';
  /** `apply --outside-window "<reason>"`: refused actions go ahead, the reason recorded. */
  readonly outsideWindow?: string;
}

/** The plan's actions once windows are applied, the holds, and their diagnostics. */
export interface WindowOutcome {
  readonly actions: readonly Action[];
  readonly holds: WindowHold[];
  readonly diagnostics: PlanDiagnostic[];
}

const CLASS: Partial<Record<Action['type'], WindowActionClass>> = {
  delete: 'delete',
  create: 'create',
  power: 'power',
  'controller-update': 'controller-update',
};

/**
 * Checks each governed action (delete, create, power, controller-update) against the
 * ChangeWindows for its class and project at `now` (pure: the clock's reading is an input). An
 * action may run when no `deny` window that applies is open and, where `allow` windows apply,
 * one of them is open; otherwise it is held until the first window boundary where it may.
 */
export function applyWindows(plan: Plan, input: WindowInput): WindowOutcome {
  const windows = input.manifests.filter(
    (m): m is LoadedManifest<ChangeWindowManifest> => m.manifest.kind === 'ChangeWindow',
  );
  if (windows.length === 0) return { actions: plan.actions, holds: [], diagnostics: [] };
  const verdicts = new Map<string, Pick<WindowHold, 'window' | 'until'> | null>();
  const holds: WindowHold[] = [];
  for (const a of plan.actions) {
    const cls = CLASS[a.type];
    if (!cls) continue;
    const project = a.target.project;
    const memo = `${cls} ${project ?? ''}`;
    if (!verdicts.has(memo)) verdicts.set(memo, windowVerdict(windows, cls, project, input.now));
    const v = verdicts.get(memo);
    if (!v) continue;
    const outcome =
      input.mode === 'hold'
        ? 'held'
        : input.mode === 'show'
          ? 'shown'
          : input.outsideWindow
            ? 'overridden'
            : 'refused';
    holds.push({
      action: a.id,
      key: a.key,
      class: cls,
      ...v,
      outcome,
      ...(outcome === 'overridden' ? { reason: input.outsideWindow } : {}),
    });
  }
  if (holds.length === 0) return { actions: plan.actions, holds, diagnostics: [] };
  const loaded = new Map(input.manifests.map((m) => [m.key, m]));
  const diagnostics = holds.map((h) => diagnosticOf(h, loaded.get(h.key)));
  if (input.mode !== 'hold') return { actions: plan.actions, holds, diagnostics };
  // held: left out with whatever waits on them; those dependents say why as deferrals do
  const held = new Set(holds.map((h) => h.key));
  const rest = excludeKeys(plan.actions, held);
  return {
    actions: rest.actions,
    holds,
    diagnostics: [
      ...diagnostics,
      ...rest.diagnostics
        .filter((d) => !held.has(d.key))
        .map((d) => ({
          ...d,
          message: d.message.replace(
            /^deferred: depends on (.*?), which is excluded from this run/,
            'held: depends on $1, which a change window holds',
          ),
        })),
    ],
  };
}

/**
 * Null when the ChangeWindows among `manifests` let an action of class `cls` in `project` run at
 * `now`; else the window that keeps it and until when (pure).
 */
export function windowVerdict(
  manifests: readonly LoadedManifest[],
  cls: WindowActionClass,
  project: string | undefined,
  now: number,
): Pick<WindowHold, 'window' | 'until'> | null {
  const applicable = manifests.filter(
    (w): w is LoadedManifest<ChangeWindowManifest> =>
      w.manifest.kind === 'ChangeWindow' &&
      w.manifest.spec.actions.includes(cls) &&
      (!w.manifest.spec.projects ||
        (project !== undefined && w.manifest.spec.projects.includes(project))),
  );
  return applicable.length === 0 ? null : verdictOf(applicable, now);
}

/** Null when the actions may run now; else the window that keeps them and until when. */
function verdictOf(
  windows: readonly LoadedManifest<ChangeWindowManifest>[],
  now: number,
): Pick<WindowHold, 'window' | 'until'> | null {
  const deny = windows.filter((w) => w.manifest.spec.window === 'deny');
  const allow = windows.filter((w) => w.manifest.spec.window === 'allow');
  const permitted = (t: number) =>
    !deny.some((w) => isOpen(w.manifest.spec, t)) &&
    (allow.length === 0 || allow.some((w) => isOpen(w.manifest.spec, t)));
  if (permitted(now)) return null;
  const open = deny.find((w) => isOpen(w.manifest.spec, now));
  const window = open ? open.key : allow.map((w) => w.key).join(', ');
  const next = windows
    .flatMap((w) => boundaries(w.manifest.spec, now))
    .sort((a, b) => a - b)
    .find(permitted);
  return { window, ...(next !== undefined ? { until: new Date(next).toISOString() } : {}) };
}

function diagnosticOf(h: WindowHold, m: LoadedManifest | undefined): PlanDiagnostic {
  const type = h.action.split('#')[1] ?? h.class;
  const when = h.until ? `until ${h.until}` : 'with no opening in the next two weeks';
  const place = m ? { file: m.source.file, line: m.source.line, col: m.source.col } : {};
  const message =
    h.outcome === 'refused'
      ? `${type} is outside change window ${h.window} (held ${when}); apply --outside-window "<reason>" to apply it now`
      : h.outcome === 'overridden'
        ? `${type} applied outside change window ${h.window}: ${h.reason}`
        : `${type} held by change window ${h.window} ${when}`;
  return {
    severity: h.outcome === 'refused' ? 'error' : 'warning',
    key: h.key,
    message,
    ...place,
  };
}
