import type { ProposedAction, ResourceRef } from '../../model/action.js';
import { isRefKey } from '../../model/key-of.js';
import { identityKey, type Kind, type Manifest, POWER_ANNOTATION } from '../../model/manifest.js';
import type { LiveObject, ObserveScope } from '../../model/provider.js';
import { type Doc, managedBody } from './diff.js';

/**
 * Which names (`name` or `workspace/name`) of a project a read keeps, and for a declared one the
 * identity key its manifest was loaded under (`get`: undefined for a name only the inventory
 * holds). A read gives that key to {@link liveRef}, which takes it once checked.
 */
export interface Wanted {
  has(name: string): boolean;
  get(name: string): string | undefined;
}
const EVERYTHING: Wanted = { has: () => true, get: () => undefined };

/**
 * The objects of one kind that a run must read, per project: declared ones and inventoried ones,
 * as `name` or `workspace/name`. Projects with nothing of the kind are left out (no request).
 * With `scope.all` (import), every project of `scope.projects` and every name in it.
 */
export function wantedByProject<K extends Kind>(scope: ObserveScope<K>): Map<string, Wanted> {
  if (scope.all) return new Map(scope.projects.map((p) => [p, EVERYTHING]));
  const wanted = new Map<string, Map<string, string | undefined>>();
  const add = (
    project: string | undefined,
    workspace: string | undefined,
    name: string,
    key: string | undefined,
  ) => {
    if (project === undefined) return;
    let names = wanted.get(project);
    if (names === undefined) {
      names = new Map();
      wanted.set(project, names);
    }
    const wantedName = workspace === undefined ? name : `${workspace}/${name}`;
    // a name declared twice keeps its first manifest's key (validate refuses that anyway)
    if (!names.has(wantedName)) names.set(wantedName, key);
  };
  for (const d of scope.desired) {
    const m = d.manifest.metadata;
    add(m.project, m.workspace, m.name, d.key);
  }
  for (const r of scope.inventory) add(r.project, r.workspace, r.name, undefined);
  return wanted;
}

/** The address of a manifest's resource. Pure. */
export function refOf(m: Manifest, id?: string): ResourceRef {
  const { name, project, workspace } = m.metadata;
  return {
    kind: m.kind,
    name,
    ...(project !== undefined ? { project } : {}),
    ...(workspace !== undefined ? { workspace } : {}),
    ...(id !== undefined ? { id } : {}),
  };
}

/** `ml/dev`, `ml/ws/gpu-1` or `alice@x`: how a resource is named in messages. Pure. */
export function display(ref: { name: string; project?: string; workspace?: string }): string {
  return [ref.project, ref.workspace, ref.name].filter((p) => p !== undefined).join('/');
}

/**
 * A live object's key and ref from the fields the platform returned. Pure. (Fields set one by
 * one, in the order conditional spreads gave: those cost a quarter of a second per 100,000.)
 * `known`: the key a declared manifest of this name was loaded under ({@link Wanted.get}), taken
 * when it is the ref's key (checked part by part) instead of joining the key again: at 100,000
 * objects the joins were an array and a string each, and the pairing hashed each new key once
 * more, where the loaded key's hash is already known.
 */
export function liveRef(
  kind: Kind,
  name: string,
  project?: string,
  workspace?: string,
  known?: string,
) {
  const ref: { -readonly [K in keyof ResourceRef]: ResourceRef[K] } = { kind, name };
  if (project !== undefined) ref.project = project;
  if (workspace !== undefined) ref.workspace = workspace;
  const key = known !== undefined && isRefKey(known, ref) ? known : identityKey(ref);
  return { key, ref: ref as ResourceRef };
}

/**
 * The live object of `id` read from `item`: its key and ref, `createdAt` where the platform said
 * it ({@link createdAtOf}), `body`, and `status` when known, in that key order. Pure. Written as
 * one literal per shape: spreading `{key, ref}` and `{createdAt}` into a literal gave each of
 * 100,000 workspaces a hidden class of its own once V8's clone cache went generic (a map and
 * its descriptors, ≈ 190 bytes an object: 18 MB of a 256 MB heap at the limit).
 */
export function liveObject(
  id: { readonly key: string; readonly ref: ResourceRef },
  item: Doc | undefined,
  body: Record<string, unknown>,
  status?: string,
): LiveObject {
  const { key, ref } = id;
  const { createdAt } = createdAtOf(item);
  if (createdAt === undefined) {
    return status === undefined ? { key, ref, body } : { key, ref, body, status };
  }
  return status === undefined
    ? { key, ref, createdAt, body }
    : { key, ref, createdAt, body, status };
}

/**
 * `{createdAt}` in epoch ms from an object's `metadata.createdAt` (or a top-level `createdAt`),
 * or `{}` when the platform did not say or said something unreadable. Pure.
 */
export function createdAtOf(item: Doc | undefined): { createdAt?: number } {
  const text = str(obj(item?.metadata)?.createdAt) ?? str(item?.createdAt);
  const at = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isFinite(at) ? { createdAt: at } : {};
}

/** The managed body without the envelope fields the diff never compares (apiVersion, kind). */
export function comparable(body: Doc): Doc {
  const { apiVersion: _a, kind: _k, status: _s, ...rest } = body;
  return rest;
}

/** Declared power state of a ComputeInstance (default `on`). Pure. */
export function desiredPower(m: Manifest): 'on' | 'off' {
  return m.metadata.annotations?.[POWER_ANNOTATION] === 'off' ? 'off' : 'on';
}

/** The changes shown for a create: the whole managed body, added. Pure. */
export function creationChanges(m: Manifest): ProposedAction['changes'] {
  const body = comparable(managedBody(m));
  return Object.entries(body).map(([k, v]) => ({
    op: 'add' as const,
    path: fieldPath(k),
    after: v,
  }));
}

/** Paths of top-level fields made so far: a manifest has a handful (`metadata`, `spec`). */
const FIELD_PATHS = new Map<string, string>();

/**
 * `/<field>`, the JSON pointer of a top-level field, one string per field name: a create or prune
 * of 100,000 made `"/metadata"` and `"/spec"` once per change (3.2 MB each, held by status until
 * the next run is recorded). Names past the first 64 are not kept (a body of odd fields). Pure.
 */
export function fieldPath(k: string): string {
  let path = FIELD_PATHS.get(k);
  if (path === undefined) {
    path = `/${k}`;
    if (FIELD_PATHS.size < 64) FIELD_PATHS.set(k, path);
  }
  return path;
}

/** A JSON object's field as an object, or undefined. */
export function obj(v: unknown): Doc | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Doc) : undefined;
}

/** A JSON object's field as a string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Copies the listed string fields that are present. Pure. */
export function pick(source: Doc | undefined, fields: readonly string[]): Doc {
  const out: Doc = {};
  for (const f of fields)
    if (source && Object.hasOwn(source, f) && source[f] !== undefined) out[f] = source[f];
  return out;
}
