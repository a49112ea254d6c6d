import type { Manifest } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';

/** The action types of a plan, in order. */
export const types = (actions: readonly { type: string }[]) => actions.map((a) => a.type);
/** A live object that mirrors a manifest (what the platform would hold after applying it). */
export const liveOf = (m: Manifest, extra: Partial<LiveObject> = {}): LiveObject => {
  const { dependsOn: _d, annotations: _a, ...metadata } = m.metadata;
  return {
    key: 'k',
    ref: {
      kind: m.kind as never,
      name: m.metadata.name,
      project: m.metadata.project,
      workspace: m.metadata.workspace,
    },
    body: JSON.parse(JSON.stringify({ ...m, metadata })),
    ...extra,
  };
};
