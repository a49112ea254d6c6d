/**
 * A JSON-like value made read-only all the way down, in place: every object and array it reaches
 * is `Object.freeze`d, so a write to any of them throws a `TypeError` (ESM code is strict). An
 * object already frozen is taken as frozen all the way down and not walked again: platctl freezes
 * its values only through this function, and the controller's manifests, read once per revision,
 * are planned every interval. Returns the value.
 */
export function deepFreeze<T>(value: T): T {
  freezeOwn(value);
  return value;
}

function freezeOwn(value: unknown): void {
  // a typed array cannot be frozen; JSON never holds one
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  if (ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value) freezeOwn(item);
    return;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key)) freezeOwn((value as Record<string, unknown>)[key]);
  }
}

/**
 * True when `value` is frozen all the way down and is plain JSON data: what
 * `JSON.parse(JSON.stringify(value))` would give back equal, key for key and in the same order
 * (objects of `Object.prototype`, arrays without holes, strings, finite numbers other than `-0`,
 * booleans, null; no `undefined`, no `__proto__` key). Such a value may stand for its stored JSON
 * form without a copy: nobody can change it. Pure, allocates nothing.
 */
export function isFrozenJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (!Object.isFrozen(value)) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || !isFrozenJson(value[i])) return false;
    }
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in value) return false;
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || !isFrozenJson((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}
