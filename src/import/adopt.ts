import { type Manifest, manifestKey } from '../model/manifest.js';
import type { LiveObject } from '../model/provider.js';
import type { StateStore } from '../state/types.js';

/**
 * `platctl import --adopt` (I/O on the store; the caller holds its lease): records each imported
 * object as managed, as if platctl had created it, with the imported manifest as last applied. A
 * later `apply --prune` may then delete what leaves git. Without adopting, imported objects stay
 * *found*: platctl updates them but never prunes them.
 */
export async function adoptImported(
  store: StateStore,
  imported: readonly { live: LiveObject; manifest: Manifest }[],
): Promise<void> {
  for (const { live, manifest } of imported) {
    const key = manifestKey(manifest);
    const id = live.ref.id;
    await store.putInventory({
      key,
      kind: manifest.kind,
      ref: live.ref,
      ...(id !== undefined ? { id } : {}),
      createdByPlatctl: true,
      protected: false,
    });
    await store.putLastApplied(key, manifest);
  }
}
