/**
 * OpenAPI Overlay 1.0 (https://spec.openapis.org/overlay/v1.0.0), the subset the emulator's
 * dialects need: an action's `target` is a plain JSONPath of member and index steps
 * (`$.paths['/a/{b}'].get.parameters[0]`, no wildcards or filters); `update` merges objects
 * recursively, appends to arrays and replaces scalars; `remove: true` deletes the target. Pure
 * apart from the caller's document, which is changed in place.
 */

interface OverlayAction {
  readonly target: string;
  readonly description?: string;
  readonly update?: unknown;
  readonly remove?: boolean;
}

export interface OverlayDocument {
  readonly overlay: string;
  readonly actions: readonly OverlayAction[];
}

type Step = string | number;

/** The steps of a target such as `$.a['b/c'][0]`; throws naming the target when it is not one. */
function parseTarget(target: string): Step[] {
  if (!target.startsWith('$')) throw new Error(`overlay target ${target}: must start with $`);
  const steps: Step[] = [];
  const step = /\.([A-Za-z_][\w-]*)|\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\]/y;
  step.lastIndex = 1;
  while (step.lastIndex < target.length) {
    const m = step.exec(target);
    if (!m) throw new Error(`overlay target ${target}: unsupported step at ${step.lastIndex}`);
    steps.push(m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : Number(m[3])));
  }
  return steps;
}

/** Applies every action in order to `doc`; throws naming the action whose target is missing. */
export function applyOverlay(doc: Record<string, unknown>, overlay: OverlayDocument): void {
  if (!/^1\./.test(String(overlay.overlay))) {
    throw new Error(`overlay version ${String(overlay.overlay)}: only 1.x is read`);
  }
  for (const action of overlay.actions) {
    const steps = parseTarget(action.target);
    const parent = walk(doc, steps.slice(0, -1), action.target);
    const last = steps.at(-1);
    if (action.remove) {
      if (last === undefined) throw new Error('overlay: cannot remove the root');
      if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
      else delete (parent as Record<Step, unknown>)[last];
      continue;
    }
    if (action.update === undefined) continue;
    if (last === undefined) {
      merge(doc, action.update);
      continue;
    }
    const holder = parent as Record<Step, unknown>;
    if (!(last in holder)) throw new Error(`overlay target ${action.target}: not found`);
    holder[last] = merge(holder[last], action.update);
  }
}

function walk(node: unknown, steps: readonly Step[], target: string): unknown {
  let at = node;
  for (const s of steps) {
    if (at === null || typeof at !== 'object' || !(s in (at as object))) {
      throw new Error(`overlay target ${target}: not found at ${String(s)}`);
    }
    at = (at as Record<Step, unknown>)[s];
  }
  if (at === null || typeof at !== 'object') throw new Error(`overlay target ${target}: not found`);
  return at;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** `base` with `update` merged in: objects recursively, arrays appended, scalars replaced. */
function merge(base: unknown, update: unknown): unknown {
  if (Array.isArray(base) && Array.isArray(update)) {
    base.push(...structuredClone(update));
    return base;
  }
  if (isObject(base) && isObject(update)) {
    for (const [k, v] of Object.entries(update))
      base[k] = k in base ? merge(base[k], v) : structuredClone(v);
    return base;
  }
  return structuredClone(update);
}
