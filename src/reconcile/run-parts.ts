import { setMaxListeners } from 'node:events';
import type { LoadedManifest, Manifest } from '../model/manifest.js';
import type { Plan } from '../model/plan.js';
import type { PriceFile } from '../model/prices.js';
import type { LiveObject, ProviderPorts } from '../model/provider.js';
import { gpuKept } from './gpu.js';
import type { RunPorts } from './run-types.js';

// The parts of a run (reconcile) that are no stage of their own.

/** The projects whose VPC Service is deployed or deploying on the platform (I/O). */
export async function vpcProjects(
  providers: RunPorts['providers'],
  projects: readonly string[],
  ports: ProviderPorts,
): Promise<ReadonlySet<string>> {
  const scope = { desired: [], inventory: [], projects, all: true };
  const services = await providers.Service.observe(scope, ports);
  return new Set(
    services
      .filter((s) => s.status === 'deployed' || s.status === 'deploying')
      .flatMap((s) => (s.ref.project === undefined ? [] : [s.ref.project])),
  );
}

/** The plan's objects left on the platform with what their compute keeps costing (pure). */
export function leftCosts(plan: Plan, live: readonly LiveObject[], prices?: PriceFile) {
  const left = plan.leftOnPlatform;
  if (!left) return {};
  const keys = new Set(left.keys);
  const specs = live.filter((l) => keys.has(l.key) && l.ref.kind === 'ComputeInstance');
  const gpu = gpuKept(
    specs.map((l) => l.body.spec),
    prices,
  );
  return { leftOnPlatform: { ...left, ...(gpu ? { gpu } : {}) } };
}

/** What a provider is handed for one run: the client, clock, hard stop and waits of `ports`. */
export function providerPortsOf(ports: RunPorts): ProviderPorts {
  const signal = ports.hardSignal ?? new AbortController().signal;
  // every request in flight listens to it: hundreds at once are expected, not a leak
  setMaxListeners(0, signal);
  return {
    api: ports.api,
    clock: ports.clock,
    signal,
    progress: () => {},
    resolveSecret: ports.resolveSecret,
    projectId: ports.projectId,
    wait: ports.wait ?? { pollMs: 2000, timeoutMs: 1_800_000 },
  };
}

/** The fields of `o` named by `keys` that are set. */
export function pick<T extends object, K extends keyof T>(
  o: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/**
 * Each manifest's key as loaded, for the pairing (`PlanOptions.keys`). Pure; a loop, where a map
 * of `[manifest, key]` pairs made an array for each of 100,000 manifests only to drop it.
 */
export function loadedKeys(manifests: readonly LoadedManifest[]): Map<Manifest, string> {
  const keys = new Map<Manifest, string>();
  for (const m of manifests) keys.set(m.manifest, m.key);
  return keys;
}

/**
 * The loaded manifests by key, as `new Map(manifests.map((m) => [m.key, m]))` (pure), made when
 * first read: preflight, the profile checks and a failed action's position look keys up only for
 * the actions that create, update or fail, and a no-op plan of 100,000 has none (the map was
 * 100,000 insertions and as many pairs made for nothing).
 */
export class LoadedByKey implements ReadonlyMap<string, LoadedManifest> {
  readonly #manifests: readonly LoadedManifest[];
  #map: Map<string, LoadedManifest> | undefined;

  constructor(manifests: readonly LoadedManifest[]) {
    this.#manifests = manifests;
  }

  get #made(): Map<string, LoadedManifest> {
    this.#map ??= new Map(this.#manifests.map((m) => [m.key, m]));
    return this.#map;
  }

  get size(): number {
    return this.#made.size;
  }

  get(key: string): LoadedManifest | undefined {
    return this.#made.get(key);
  }

  has(key: string): boolean {
    return this.#made.has(key);
  }

  entries(): MapIterator<[string, LoadedManifest]> {
    return this.#made.entries();
  }

  keys(): MapIterator<string> {
    return this.#made.keys();
  }

  values(): MapIterator<LoadedManifest> {
    return this.#made.values();
  }

  forEach(
    fn: (value: LoadedManifest, key: string, map: ReadonlyMap<string, LoadedManifest>) => void,
  ): void {
    for (const [key, value] of this.#made) fn(value, key, this);
  }

  [Symbol.iterator](): MapIterator<[string, LoadedManifest]> {
    return this.#made.entries();
  }
}
