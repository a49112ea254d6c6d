import type { LiveObject } from '../../model/provider.js';
import { createProjectDirectory } from '../../providers/index.js';
import { observeAll } from '../../reconcile/observe.js';
import type { EngineDeps } from './engine-adapter.js';
import { controllerLoad } from './manifest-loading.js';
import type { LiveView, ObserveOne } from './ports.js';

/** What the control API may show of a live object: its managed fields, status and power. */
function liveView(o: LiveObject): LiveView {
  return {
    body: o.body,
    ...(o.status !== undefined ? { status: o.status } : {}),
    ...(o.powerState !== undefined ? { powerState: o.powerState } : {}),
  };
}

/**
 * The controller's {@link ObserveOne}: the engine's own observe stage for one key (its provider,
 * its manifest from the revision's load, its inventory entry), through the controller's client
 * and so its shared rate limit. Reads only, so a standby may serve it too.
 */
export function engineObserve(
  deps: Pick<
    EngineDeps,
    'api' | 'providers' | 'state' | 'clock' | 'resolveSecret' | 'load' | 'wait'
  >,
): ObserveOne {
  return async (dir, key, signal) => {
    const { manifests } = await (deps.load ?? controllerLoad)({ paths: [dir] });
    const desired = manifests.filter((m) => m.key === key);
    const owned = (await deps.state.inventory()).filter((e) => e.key === key);
    if (desired.length === 0 && owned.length === 0) return undefined;
    const { live } = await observeAll(deps.providers, desired, owned, [], {
      api: deps.api,
      clock: deps.clock,
      signal,
      progress: () => {},
      resolveSecret: deps.resolveSecret,
      projectId: createProjectDirectory(deps.api),
      wait: deps.wait ?? { pollMs: 2000, timeoutMs: 1_800_000 },
    });
    const found = live.find((o) => o.key === key);
    return found ? liveView(found) : undefined;
  };
}
