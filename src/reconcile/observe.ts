import { PlatctlError } from '../core/errors.js';
import type { ResourceRef } from '../model/action.js';
import { ApiError } from '../model/api-errors.js';
import { isRefKey } from '../model/key-of.js';
import { identityKey, KINDS, type LoadedManifest, type Manifest } from '../model/manifest.js';
import type { LiveObject, ProviderPorts, ProviderRegistry } from '../model/provider.js';
import type { InventoryEntry, PendingOperation } from '../state/types.js';
import type { EventSink } from './events.js';

/** What observing found: the live objects, and the keys whose live state could not be read. */
export interface Observation {
  readonly live: LiveObject[];
  /** Identity key → why it could not be read (after the client's retries). */
  readonly unreadable: ReadonlyMap<string, { readonly message: string; readonly code: string }>;
}

/** One resource to read: its manifest, its inventory or pending ref, or both. */
interface Item {
  readonly key: string;
  readonly desired: readonly LoadedManifest[];
  readonly refs: readonly ResourceRef[];
}

/**
 * Reads the live state every kind needs (I/O): what is declared, what the inventory says platctl
 * manages, and creates left pending by an earlier run. Kinds are observed concurrently; the API
 * client's shared limiter keeps the request rate. A read that still fails after the client's
 * retries fails only the resources it was for: the kind's scope is split in halves until the
 * failing resources are found, and those come back `unreadable`. A refused key (401) or an
 * interruption still fails the whole run.
 */
export async function observeAll(
  providers: ProviderRegistry,
  manifests: readonly LoadedManifest[],
  inventory: readonly InventoryEntry[],
  pending: readonly PendingOperation[],
  ports: ProviderPorts,
  events?: EventSink,
): Promise<Observation> {
  // each ref with the key its row was stored under (taken for the ref's when it is: isRefKey)
  const owned: readonly Owned[] = [...inventory, ...pending];
  const projects = projectsOf(manifests, owned);
  const unreadable = new Map<string, { message: string; code: string }>();
  const desiredOf = byKind(manifests, (m) => m.manifest.kind);
  const refsOf = byKind(owned, (o) => o.ref.kind);
  const perKind = KINDS.map(async (kind) => {
    const desired = desiredOf.get(kind) ?? [];
    const mine = refsOf.get(kind) ?? [];
    if (desired.length === 0 && mine.length === 0) return [];
    const provider = providers[kind] as ProviderRegistry[Manifest['kind']];
    const read = (scope: Scope) =>
      provider.observe({ desired: scope.desired as never, inventory: scope.refs, projects }, ports);
    let live: LiveObject[];
    try {
      live = await read(wholeScope(desired, mine));
    } catch (err) {
      // the items, to narrow the failure down, only once a read failed
      const items = itemsOf(
        desired,
        mine.map((o) => o.ref),
      );
      live = await isolating(read, items, unreadable, { error: err });
    }
    events?.({ type: 'observe', kind, count: live.length });
    return live;
  });
  return { live: (await Promise.all(perKind)).flat(), unreadable };
}

/**
 * Every project the manifests and the refs name, sorted (pure): one set filled in a loop, where
 * two lists of 100,000 projects each, joined and filtered, were made only to fill it.
 */
function projectsOf(
  manifests: readonly LoadedManifest[],
  owned: readonly { readonly ref: ResourceRef }[],
): string[] {
  const projects = new Set<string>();
  for (const m of manifests) {
    const p = m.manifest.metadata.project;
    if (p !== undefined) projects.add(p);
  }
  for (const o of owned) if (o.ref.project !== undefined) projects.add(o.ref.project);
  return [...projects].sort();
}

/**
 * `items` grouped by kind, each group in their order: what a filter per kind gave (twelve passes
 * over 100,000 manifests and as many refs were a tenth of a no-op plan's observe).
 */
export function byKind<T>(items: readonly T[], kindOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const kind = kindOf(item);
    const group = groups.get(kind);
    if (group) group.push(item);
    else groups.set(kind, [item]);
  }
  return groups;
}

/** What one read of a kind asks for: manifests and inventory refs, grouped by key. */
interface Scope {
  readonly desired: readonly LoadedManifest[];
  readonly refs: readonly ResourceRef[];
}

/** An inventory entry or a pending create: a ref and the key it was stored under. */
interface Owned {
  readonly key: string;
  readonly ref: ResourceRef;
}

/** The scope of a list of items: their manifests, then their refs, item by item. */
const scopeOf = (items: readonly Item[]): Scope => ({
  desired: items.flatMap((i) => i.desired),
  refs: items.flatMap((i) => i.refs),
});

/**
 * {@link scopeOf} the {@link itemsOf} `desired` and `owned` refs (pure), without making the
 * items: each key's manifests and refs together, keys in the order they first appear (the manifests' first).
 * At 100,000 resources the items (an object and two arrays a key) were most of observe's own
 * time, and they are needed only to narrow down a read that failed.
 */
function wholeScope(desired: readonly LoadedManifest[], owned: readonly Owned[]): Scope {
  const refs = owned.map((o) => o.ref);
  const place = new Map<string, number>();
  for (const d of desired) {
    // a key declared twice: its manifests go together (validate refuses that; the items do it).
    // One lookup a key: the map is left as it is once one is found again
    const size = place.size;
    place.set(d.key, size);
    if (place.size === size) return scopeOf(itemsOf(desired, refs));
  }
  const places = new Int32Array(refs.length);
  let inOrder = true;
  for (let i = 0; i < refs.length; i++) {
    const { key: stored, ref } = owned[i]!;
    // the stored key, not one made again (100,000 joined strings a plan), when it is the ref's
    const key = isRefKey(stored, ref) ? stored : identityKey(ref);
    let at = place.get(key);
    if (at === undefined) {
      at = place.size;
      place.set(key, at);
    }
    places[i] = at;
    if (i > 0 && at < places[i - 1]!) inOrder = false;
  }
  if (inOrder) return { desired, refs };
  // the refs by their key's place, in their own order within one key (a counting sort)
  const next = new Int32Array(place.size + 1);
  for (const at of places) next[at + 1] = next[at + 1]! + 1;
  for (let i = 1; i < next.length; i++) next[i] = next[i]! + next[i - 1]!;
  const sorted = new Array<ResourceRef>(refs.length);
  for (let i = 0; i < refs.length; i++) {
    const at = places[i]!;
    sorted[next[at]!] = refs[i]!;
    next[at] = next[at]! + 1;
  }
  return { desired, refs: sorted };
}

const NONE: readonly never[] = Object.freeze([]);

function itemsOf(desired: readonly LoadedManifest[], refs: readonly ResourceRef[]): Item[] {
  const byKey = new Map<string, { key: string; desired: Item['desired']; refs: Item['refs'] }>();
  const item = (key: string) => {
    const known = byKey.get(key);
    if (known) return known;
    const fresh = { key, desired: NONE as Item['desired'], refs: NONE as Item['refs'] };
    byKey.set(key, fresh);
    return fresh;
  };
  // a key has one manifest and one ref but for a duplicate: one-slot lists, not `[]` pushed to
  // (V8 gives an empty literal seventeen slots on its first push: 35 MB of lists at 100,000)
  for (const d of desired) {
    const i = item(d.key);
    i.desired = i.desired === NONE ? [d] : [...i.desired, d];
  }
  for (const r of refs) {
    const i = item(identityKey(r));
    i.refs = i.refs === NONE ? [r] : [...i.refs, r];
  }
  return [...byKey.values()];
}

/**
 * Reads `items`; on a failure, reads each half apart, down to the resources that fail. `failed`:
 * what a read of these very items already threw (they are not read again).
 */
async function isolating(
  read: (scope: Scope) => Promise<LiveObject[]>,
  items: readonly Item[],
  unreadable: Map<string, { message: string; code: string }>,
  failed?: { readonly error: unknown },
): Promise<LiveObject[]> {
  try {
    if (failed) throw failed.error;
    return await read(scopeOf(items));
  } catch (err) {
    if (wholeRun(err)) throw err;
    if (items.length === 1) {
      unreadable.set(items[0]!.key, {
        message: err instanceof Error ? err.message : String(err),
        code: err instanceof PlatctlError ? err.code : 'internal',
      });
      return [];
    }
    const mid = Math.ceil(items.length / 2);
    const halves = await Promise.all([
      isolating(read, items.slice(0, mid), unreadable),
      isolating(read, items.slice(mid), unreadable),
    ]);
    return halves.flat();
  }
}

/** Failures no resource can get past: a refused key, an interruption, a bug. */
function wholeRun(err: unknown): boolean {
  if (err instanceof ApiError) return err.status === 401;
  if (err instanceof PlatctlError) return err.code === 'aborted' || err.code === 'config';
  return !(err instanceof Error) || err.name === 'TypeError';
}
