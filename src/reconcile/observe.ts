import { KINDS, type LoadedManifest, type Manifest } from '../manifests/types.js';
import type { LiveObject, ProviderPorts, ProviderRegistry } from '../providers/types.js';
import type { InventoryEntry, PendingOperation } from '../state/types.js';
import type { EventSink } from './events.js';

/**
 * Reads the live state every kind needs (I/O): what is declared, what the inventory says platctl
 * manages, and creates left pending by an earlier run. Kinds are observed concurrently; the API
 * client's shared limiter keeps the request rate.
 */
export async function observeAll(
  providers: ProviderRegistry,
  manifests: readonly LoadedManifest[],
  inventory: readonly InventoryEntry[],
  pending: readonly PendingOperation[],
  ports: ProviderPorts,
  events?: EventSink,
): Promise<LiveObject[]> {
  const refs = [...inventory.map((e) => e.ref), ...pending.map((p) => p.ref)];
  const projects = [
    ...new Set(
      [...manifests.map((m) => m.manifest.metadata.project), ...refs.map((r) => r.project)].filter(
        (p): p is string => p !== undefined,
      ),
    ),
  ].sort();
  const perKind = KINDS.map(async (kind) => {
    const desired = manifests.filter((m) => m.manifest.kind === kind);
    const managed = refs.filter((r) => r.kind === kind);
    if (desired.length === 0 && managed.length === 0) return [];
    const provider = providers[kind] as ProviderRegistry[Manifest['kind']];
    const live = await provider.observe(
      { desired: desired as never, inventory: managed, projects },
      ports,
    );
    events?.({ type: 'observe', kind, count: live.length });
    return live;
  });
  return (await Promise.all(perKind)).flat();
}
