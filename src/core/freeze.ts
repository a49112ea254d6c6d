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
