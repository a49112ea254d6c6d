import type { StatusView } from '../../controller/http/control-views.js';
import type { ResourceCondition } from '../../controller/status/conditions.js';
import type { Plan } from '../../model/plan.js';

/**
 * What `platctl ctl` expects each control API answer to look like: a check returns what is
 * wrong with a value (for the error), or undefined when it has the shape the command reads. Only
 * the fields the commands read are checked; more is fine (a newer controller). Pure.
 */
export type Shape<T> = ((v: unknown) => string | undefined) & { readonly __type?: T };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first of `checks` that finds something wrong with object `v`. */
function object<T>(checks: Record<string, (field: unknown) => boolean>, what: string): Shape<T> {
  return (v) => {
    if (!isObject(v)) return `${what} is not a JSON object`;
    const bad = Object.entries(checks).filter(([k, ok]) => !ok(v[k]));
    return bad.length > 0 ? `${what} lacks ${bad.map(([k]) => k).join(', ')}` : undefined;
  };
}

const isBoolean = (v: unknown) => typeof v === 'boolean';
const isTrue = (v: unknown) => v === true;
const isArray = (v: unknown) => Array.isArray(v);
const isString = (v: unknown) => typeof v === 'string';
const optional = (check: (v: unknown) => boolean) => (v: unknown) => v === undefined || check(v);

export const STATUS: Shape<StatusView> = object(
  {
    source: isObject,
    role: isString,
    suspended: isBoolean,
    revisions: isObject,
    counts: isObject,
    rejected: isArray,
    sourceReady: isBoolean,
    blockedPrune: optional(isObject),
    shards: optional(isObject),
  },
  'the status',
);

export const RESOURCES: Shape<{ total: number; items: ResourceCondition[] }> = object(
  { total: (v) => typeof v === 'number', items: isArray },
  'the resource list',
);

export const PLAN: Shape<Plan> = object({ actions: isArray }, 'the plan');
export const ACCEPTED: Shape<{ accepted: true }> = object({ accepted: isTrue }, 'the answer');
export const SUSPENDED: Shape<{ suspended: boolean }> = object(
  { suspended: isBoolean },
  'the answer',
);
export const APPROVED: Shape<{ approved: true }> = object({ approved: isTrue }, 'the answer');
export const RESET: Shape<{ reset: true }> = object({ reset: isTrue }, 'the answer');
