/**
 * True when `a` and `b` are the same plain data: objects with the same own keys (in any order),
 * arrays of the same length, and equal (`===`) strings, finite numbers, booleans and `null` in the
 * same places (pure). Anything else — `undefined`, a non-finite number, a function, a class
 * instance, an array with holes — makes the answer false, as does a tree deeper than
 * {@link MAX_DEPTH}.
 *
 * A fast "in sync" check for the three-way diff (`threeWayDiff` of `./diff.ts`): when the desired
 * and live managed bodies are identical, the diff finds nothing whatever was last applied (the
 * live fields it keeps are those desired names, and they equal desired's), so the planner needs
 * neither the diff nor the last-applied manifest. False only means "not known to be": the diff
 * decides then. `test/providers/identical.test.ts` holds the two to the same answer.
 */
export function identicalJson(a: unknown, b: unknown): boolean {
  return same(a, b, 0);
}

/** Deeper than any manifest; a cycle or an odd document is left to the diff. */
const MAX_DEPTH = 64;

function same(a: unknown, b: unknown, depth: number): boolean {
  switch (typeof a) {
    case 'string':
    case 'boolean':
      return a === b;
    case 'number':
      return a === b && Number.isFinite(a);
    case 'object':
      if (a === null) return b === null;
      if (typeof b !== 'object' || b === null || depth > MAX_DEPTH) return false;
      if (Array.isArray(a)) return Array.isArray(b) && sameArray(a, b, depth);
      return !Array.isArray(b) && plain(a) && plain(b) && sameObject(a, b, depth);
    default:
      return false;
  }
}

function plain(o: object): boolean {
  const proto = Object.getPrototypeOf(o) as unknown;
  return proto === Object.prototype || proto === null;
}

function sameArray(a: readonly unknown[], b: readonly unknown[], depth: number): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (!Object.hasOwn(a, i) || !Object.hasOwn(b, i) || !same(a[i], b[i], depth + 1)) return false;
  }
  return true;
}

/** An own enumerable property: one that `Object.keys` lists, as the diff reads them. */
const enumerable = Object.prototype.propertyIsEnumerable;

function sameObject(a: object, b: object, depth: number): boolean {
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  for (const k of keys) {
    if (!enumerable.call(rb, k) || !same(ra[k], rb[k], depth + 1)) return false;
  }
  return true;
}

/** An envelope field, which `comparable` (`./scope.ts`) leaves out of both bodies. */
const envelope = (k: string) => k === 'apiVersion' || k === 'kind' || k === 'status';
/** platctl's own metadata, which `managedBody` (`./diff.ts`) leaves out of a manifest. */
const platctlOnly = (k: string) => k === 'dependsOn' || k === 'annotations';

/**
 * `identicalJson(comparable(managed(desired)), comparable(liveBody))` for a `managed` that is
 * `managedBody` with the top-level fields `dropped` deleted — read off the manifest in place,
 * without its copy and the two bodies spread (pure; a no-op plan of 100,000 workspaces made
 * 300,000 objects for it). True only when that is true. False also where the copy would have
 * changed the manifest (an `undefined`, a non-finite number, a class instance, an array with a
 * hole): "not known to be", as for {@link identicalJson}, and the diff decides.
 */
export function identicalManaged(
  desired: object,
  liveBody: object,
  dropped: ReadonlySet<string>,
): boolean {
  if (Array.isArray(desired) || Array.isArray(liveBody) || !plain(desired) || !plain(liveBody)) {
    return false;
  }
  const d = desired as Record<string, unknown>;
  const l = liveBody as Record<string, unknown>;
  let kept = 0;
  for (const k of Object.keys(d)) {
    if (envelope(k) || dropped.has(k)) continue;
    kept++;
    if (!enumerable.call(l, k)) return false;
    const same1 = k === 'metadata' ? sameMetadata(d[k], l[k]) : same(d[k], l[k], 1);
    if (!same1) return false;
  }
  let live = 0;
  for (const k of Object.keys(l)) if (!envelope(k)) live++;
  return kept === live;
}

/** The manifest's metadata without platctl's own fields against the live body's, at depth 1. */
function sameMetadata(d: unknown, l: unknown): boolean {
  if (typeof d !== 'object' || d === null || Array.isArray(d) || !plain(d)) return false;
  if (typeof l !== 'object' || l === null || Array.isArray(l) || !plain(l)) return false;
  const dm = d as Record<string, unknown>;
  const lm = l as Record<string, unknown>;
  let kept = 0;
  for (const k of Object.keys(dm)) {
    if (platctlOnly(k)) continue;
    kept++;
    if (!enumerable.call(lm, k) || !same(dm[k], lm[k], 2)) return false;
  }
  return kept === Object.keys(lm).length;
}
