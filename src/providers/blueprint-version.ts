import type { Action, ProposedAction } from '../model/action.js';
import type { ManifestOf } from '../model/manifest.js';
import type { Provider, ProviderPorts } from '../model/provider.js';
import { tablePath } from './client/paths.js';
import { unsupported } from './support/actions.js';
import { refOf } from './support/scope.js';

type VersionManifest = ManifestOf<'BlueprintVersion'>;

const same = (a: VersionManifest, b: VersionManifest) =>
  a.spec.blueprint === b.spec.blueprint &&
  a.spec.version === b.spec.version &&
  a.spec.enabled === b.spec.enabled;

/**
 * Whether a blueprint version may be used in a project. The API has no read of it: enable or
 * disable is planned when git differs from what platctl last applied. Pruning forgets it (the
 * state before platctl is unknown, so there is nothing to restore).
 */
export const blueprintVersionProvider: Provider<'BlueprintVersion'> = {
  kind: 'BlueprintVersion',

  async observe() {
    return [];
  },

  plan({ key, desired, lastApplied }): ProposedAction[] {
    if (!desired || (lastApplied && same(desired, lastApplied))) return [];
    const { blueprint, version, enabled } = desired.spec;
    return [
      {
        type: enabled ? 'enable-version' : 'disable-version',
        key,
        target: refOf(desired),
        desired,
        reason: {
          code: lastApplied ? 'changed' : 'absent',
          message: `${enabled ? 'enable' : 'disable'} ${blueprint}@${version} in project ${desired.metadata.project}`,
        },
        changes: [
          {
            op: lastApplied ? 'replace' : 'add',
            path: '/spec/enabled',
            ...(lastApplied ? { before: lastApplied.spec.enabled } : {}),
            after: enabled,
          },
        ],
      },
    ];
  },

  async execute(action: Action, ports: ProviderPorts) {
    if (action.type !== 'enable-version' && action.type !== 'disable-version') {
      throw unsupported('BlueprintVersion', action);
    }
    const m = action.desired as VersionManifest;
    const verb = action.type === 'enable-version' ? 'enable' : 'disable';
    const projectId = await ports.projectId(m.metadata.project);
    await ports.api.request({
      method: 'POST',
      // the spec shows neither path: they come from the path table
      ...tablePath(ports.api, verb === 'enable' ? 'blueprintEnable' : 'blueprintDisable', {
        projectId,
        blueprint: m.spec.blueprint,
        version: m.spec.version,
      }),
      auth: 'scheduler',
      operation: `${verb.slice(0, -1)}ing blueprint version ${m.spec.blueprint}@${m.spec.version} in project ${m.metadata.project}`,
      body: {},
      idempotent: true,
      signal: ports.signal,
    });
    return {};
  },
};
