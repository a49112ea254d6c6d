import type { Manifest } from '../model/manifest.js';
import { renderDocument } from './files.js';

/** Documents rendered between two turns of the event loop: ≈ 4 ms of `yaml`'s stringify. */
const SLICE = 32;

/** Documents rendered while the rest of the platform is still being read. */
export interface RenderAhead {
  /** Queues manifests to render; returns at once. */
  add(manifests: readonly Manifest[]): void;
  /** Once every queued manifest is rendered: the text of a manifest, rendered now if not queued. */
  texts(): Promise<(m: Manifest) => string>;
}

/**
 * Renders each manifest's YAML document as soon as its kind is read, in slices that yield to the
 * event loop (I/O: `setImmediate` only). An import is paced by the platform's rate limit, so the
 * process mostly waits for its next request slot while instances are read one by one; rendering
 * the workspaces in that wait, instead of all 10,000 documents after the last answer, takes
 * `yaml`'s stringify (≈ 0.13 ms a document) off the end of the run. Slices keep the rate
 * limiter's timers on time: a whole kind rendered in one turn (1 s for 8,000 workspaces) would
 * hold back every request due meanwhile.
 */
export function renderAhead(render: (m: Manifest) => string = renderDocument): RenderAhead {
  const texts = new Map<Manifest, string>();
  let done: Promise<void> = Promise.resolve();
  const renderAll = async (manifests: readonly Manifest[]) => {
    for (let i = 0; i < manifests.length; i++) {
      if (i > 0 && i % SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const m = manifests[i]!;
      texts.set(m, render(m));
    }
  };
  return {
    add(manifests) {
      done = done.then(() => renderAll(manifests));
    },
    async texts() {
      await done;
      return (m) => texts.get(m) ?? render(m);
    },
  };
}
