import type { Action, ProposedAction } from '../model/action.js';
import type { ManifestOf } from '../model/manifest.js';
import type { Provider, ProviderPorts } from '../model/provider.js';
import { unsupported } from './support/actions.js';
import { threeWayDiff } from './support/diff.js';
import { seg } from './support/list.js';
import { creationChanges, display, refOf } from './support/scope.js';

type PublishManifest = ManifestOf<'BlueprintPublish'>;

/**
 * Publishing a blueprint version to a cluster with a force sync of its add-ons. The API has no
 * read of what was published: a force sync is planned whenever git differs from what platctl last
 * applied. Nothing can undo a publish, so pruning one only forgets it.
 */
export const blueprintPublishProvider: Provider<'BlueprintPublish'> = {
  kind: 'BlueprintPublish',

  async observe() {
    return [];
  },

  plan({ key, desired, lastApplied }): ProposedAction[] {
    if (!desired) return [];
    const what = `blueprint ${desired.spec.blueprint.name}@${desired.spec.blueprint.version} on cluster ${desired.metadata.project}/${desired.spec.cluster}`;
    const reason = { code: 'changed' as const, message: `publish ${what}` };
    if (!lastApplied) {
      return [
        {
          type: 'force-sync',
          key,
          target: refOf(desired),
          desired,
          reason: { code: 'absent', message: `publish ${what}` },
          changes: creationChanges(desired),
        },
      ];
    }
    const diff = threeWayDiff(
      { spec: normalizedSpec(desired) },
      { spec: normalizedSpec(lastApplied) },
      { spec: normalizedSpec(lastApplied) },
    );
    if (!diff) return [];
    return [
      { type: 'force-sync', key, target: refOf(desired), desired, reason, changes: diff.changes },
    ];
  },

  async execute(action: Action, ports: ProviderPorts) {
    if (action.type !== 'force-sync') throw unsupported('BlueprintPublish', action);
    const m = action.desired as PublishManifest;
    const projectId = await ports.projectId(m.metadata.project);
    await ports.api.request({
      method: 'POST',
      path: `/v2/scheduler/project/${seg(projectId)}/cluster/${seg(m.spec.cluster)}/publish/blueprint`,
      route: '/v2/scheduler/project/{projectId}/cluster/{cluster}/publish/blueprint',
      auth: 'scheduler',
      operation: `publishing blueprint ${m.spec.blueprint.name}@${m.spec.blueprint.version} to cluster ${display({ project: m.metadata.project, name: m.spec.cluster })}`,
      body: {
        metadata: { forceSync: m.spec.forceSync ?? true },
        blueprintName: m.spec.blueprint.name,
        blueprintVersion: m.spec.blueprint.version,
        ...(m.spec.addons?.length ? { addons: m.spec.addons } : {}),
      },
      idempotent: true, // publishing the version a cluster has is the same publish
      signal: ports.signal,
    });
    return {};
  },
};

/**
 * Add-ons as a sorted list (order carries no meaning; empty and omitted both mean all), and
 * `forceSync` with its default (true), so a record from before the field plans nothing.
 */
function normalizedSpec(m: PublishManifest) {
  return {
    ...m.spec,
    addons: [...(m.spec.addons ?? [])].sort(),
    forceSync: m.spec.forceSync ?? true,
  };
}
