import { relative } from 'node:path';
import { PlatctlError, redact } from '../../core/errors.js';
import type { PriceFile } from '../../model/prices.js';
import { type PowerRequest, powerGate } from '../../reconcile/power-requests.js';
import type { LiveView } from '../engine/ports.js';
import { HISTORY_SIZE } from '../status/history.js';
import { diffOf, resourceView } from './control-views.js';
import type { ControllerControls } from './controls.js';
import { scheduleOf } from './fleet-view.js';
import { actionHistory, computeOf, liveDocument, maskSecrets } from './resource-views.js';

/** What one resource's routes need of the control API. */
export interface ResourceRouteDeps {
  readonly controls: ControllerControls;
  readonly now: () => number;
  readonly prices?: PriceFile;
}

/** A power action an operator may ask for an instance. */
type PowerVerb = 'on' | 'off' | 'reboot';

/** What a compute instance's page may offer: the actions git allows now, and why not the rest. */
interface PowerOffer {
  readonly actions: readonly PowerVerb[];
  readonly reasons: readonly string[];
}

/** How long a resource's live read may take before the page is answered without it. */
const LIVE_TIMEOUT_MS = 15_000;

/** `key` as the platform has it now, or why it could not be read (never a secret). */
async function liveOf(
  controls: ControllerControls,
  key: string,
): Promise<{ live?: LiveView; error?: string }> {
  try {
    const live = await controls.live(key, AbortSignal.timeout(LIVE_TIMEOUT_MS));
    return live ? { live } : {};
  } catch (err) {
    return { error: err instanceof PlatctlError ? err.message : redact(String(err)) };
  }
}

/**
 * Why the controller would not carry out `verb` on `key` now (file I/O: the desired revision's
 * manifests), undefined when it would: git must allow it (`powerGate`), and the controller must
 * be applying (not suspended, not dry-run).
 */
async function refusal(
  d: ResourceRouteDeps,
  key: string,
  verb: PowerVerb,
): Promise<string | undefined> {
  const { status } = d.controls;
  if (status.suspended) return 'the controller is suspended: it changes nothing until resumed';
  if (status.dryRun) return 'the controller runs with --dry-run: it changes nothing';
  const root = d.controls.sourceDir();
  // a place relative to the source, as the resource page's file:line: no checkout's path shown
  const gate = powerGate(await d.controls.loaded(), key, d.now(), (m) => {
    const file = root ? relative(root, m.source.file) || m.source.file : m.source.file;
    return `${file}:${m.source.line}`;
  });
  if (!gate) return `git declares no compute instance ${key}`;
  const verdict = verb === 'reboot' ? gate.reboot : gate.state;
  return verdict === true ? undefined : verdict;
}

/** The power actions of `key` that make sense for its state and that git allows now. */
async function powerOffer(
  d: ResourceRouteDeps,
  key: string,
  power: 'on' | 'off' | undefined,
): Promise<PowerOffer> {
  if (!power) return { actions: [], reasons: ['its power state is not known yet'] };
  const wanted: PowerVerb[] = power === 'on' ? ['off', 'reboot'] : ['on'];
  const actions: PowerVerb[] = [];
  const reasons = new Set<string>();
  for (const verb of wanted) {
    const why = await refusal(d, key, verb);
    if (why) reasons.add(why);
    else actions.push(verb);
  }
  return { actions, reasons: [...reasons] };
}

/** `GET /api/v1/resources/{key}`'s answer (I/O: history, manifests, the platform); undefined: unknown. */
export async function resourceDetail(
  d: ResourceRouteDeps,
  key: string,
): Promise<Record<string, unknown> | undefined> {
  const { controls } = d;
  const c = controls.status.conditions.find((x) => x.key === key);
  if (!c) return undefined;
  const [desired, source, runs, live, loaded] = await Promise.all([
    controls.desired(key),
    controls.source(key),
    controls.runs(HISTORY_SIZE),
    liveOf(controls, key),
    c.kind === 'ComputeInstance' ? controls.loaded() : [],
  ]);
  const compute = computeOf(c.kind, desired, live.live);
  const schedule = scheduleOf(loaded, key, d.now(), d.prices);
  const power = compute ? await powerOffer(d, key, compute.powerState) : undefined;
  // a run may have ended during the reads: the condition as it is now, beside the diff read now
  const current = controls.status.conditions.find((x) => x.key === key) ?? c;
  return {
    resource: resourceView(current),
    ...(desired !== undefined ? { desired: maskSecrets(desired) } : {}),
    ...(source ? { source } : {}),
    ...(live.live ? { live: liveDocument(live.live) } : {}),
    ...(live.error ? { liveError: live.error } : {}),
    ...(compute ? { compute } : {}),
    ...(schedule ? { schedule } : {}),
    ...(power ? { power } : {}),
    diff: diffOf(controls.status, key),
    actions: actionHistory(runs, key),
  };
}

/**
 * `POST /api/v1/resources/{key}/power` with `{ action: 'on' | 'off' | 'reboot' }`: records the
 * request and runs now, where git allows it. Answers `[status, body]`: 202 accepted, 400 a bad
 * action, 404 an unknown resource, 409 what git (or the controller's mode) does not allow.
 */
export async function requestPower(
  d: ResourceRouteDeps,
  key: string,
  body: Record<string, unknown>,
): Promise<[number, unknown]> {
  const verb = body.action;
  if (verb !== 'on' && verb !== 'off' && verb !== 'reboot') {
    return [400, { error: 'action must be on, off or reboot' }];
  }
  if (!d.controls.status.conditions.some((c) => c.key === key)) {
    return [404, { error: `unknown resource ${key}` }];
  }
  const why = await refusal(d, key, verb);
  if (why) return [409, { error: why }];
  const at = new Date(d.now()).toISOString();
  const request: PowerRequest =
    verb === 'reboot' ? { reset: `control-api ${at}`, at } : { state: verb, at };
  await d.controls.requestPower(key, request);
  return [202, { accepted: true, request }];
}
