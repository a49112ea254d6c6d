import { closeSegments } from '../billing/segments.js';
import { ApiError, type EmuContext, type EmuRequest, type EmuResponse } from '../http/types.js';
import { badField } from '../shared/responses.js';
import { instanceFromPath, paasResult } from './compute.js';
import { computeStatus, openBilling, saveInstance } from './compute-store.js';

/** The power actions of the spec (path values, `%20` already decoded by the HTTP layer). */
type PowerAction = 'start' | 'stop' | 'Power reset' | 'Power cycle';

interface PowerRule {
  /** The power state the action needs. */
  readonly from: 'on' | 'off';
  /** The power state it leaves. */
  readonly to: 'on' | 'off';
  readonly done: string;
}

/** Which state each action needs and leaves (docs/api-assumptions.md, "Power"). */
const POWER_RULES: Readonly<Record<PowerAction, PowerRule>> = {
  start: { from: 'off', to: 'on', done: 'powered on' },
  stop: { from: 'on', to: 'off', done: 'powered off' },
  'Power reset': { from: 'on', to: 'on', done: 'reset' },
  'Power cycle': { from: 'on', to: 'on', done: 'power cycled' },
};

function isPowerAction(action: string): action is PowerAction {
  return Object.hasOwn(POWER_RULES, action);
}

/**
 * POST .../{name}/action/{action}: 200 and the new `status.powerState`. 400 for an unknown action
 * (normally caught by the OpenAPI enum first), 404 for an unknown instance, 409 when the instance
 * is not `success` or its power state does not allow the action.
 */
export function powerComputeInstance(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const action = req.params.action ?? '';
  if (!isPowerAction(action)) {
    throw badField('action', 'must be one of start, stop, Power reset, Power cycle');
  }
  const r = instanceFromPath(req, ctx);
  const status = computeStatus(ctx, r);
  const rule = POWER_RULES[action];
  if (status !== 'success') {
    throw new ApiError(
      409,
      'not_allowed',
      `${action} is not allowed while the instance is ${status}`,
    );
  }
  if (r.powerState !== rule.from) {
    throw new ApiError(
      409,
      'not_allowed',
      `${action} is not allowed while power is ${r.powerState}`,
    );
  }
  const now = ctx.clock.now();
  // an instance accrues usage while powered on (docs/api-assumptions.md, "Billing"): the
  // instance and its billing segments change together or not at all
  ctx.store.transaction(() => {
    saveInstance(ctx, { ...r, powerState: rule.to });
    if (rule.to === 'off') closeSegments(ctx, r.id, now);
    else if (rule.from === 'off') openBilling(ctx, r, now);
  });
  return paasResult(200, 'Success', `compute instance ${r.name} ${rule.done}`);
}
