import { getBlueprint, resolveVersion } from '../blueprints/blueprint-store.js';
import type { EmuContext } from '../http/types.js';
import { checkEnvelope } from '../shared/envelope.js';
import { badField } from '../shared/responses.js';

/** The Cluster body as the OpenAPI document has validated it. */
export interface ClusterBody {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    project?: string;
    description?: string;
    labels?: Record<string, string>;
  };
  spec: {
    cloudCredentials: string;
    blueprint: { name: string; version?: string };
    [key: string]: unknown;
  };
}

/**
 * The checks the schema cannot express, each a 400 naming its field: the envelope rule of every
 * resource body (apiVersion `{infra_group}/v3`, kind `Cluster`, metadata.project as in the path),
 * and the body names credentials, a blueprint and an enabled version that exist in the project.
 */
export function checkClusterBody(ctx: EmuContext, project: string, body: ClusterBody): void {
  const apiVersion = `${ctx.config.infraGroup}/v3`;
  checkEnvelope(body, { apiVersion, kind: 'Cluster', scope: { project } });
  const creds = body.spec.cloudCredentials;
  if (!ctx.store.get('cloudcredentials', `${project}/${creds}`)) {
    throw badField('spec.cloudCredentials', `unknown cloud credentials ${creds}`);
  }
  const bp = getBlueprint(ctx, project, body.spec.blueprint.name);
  if (!bp) throw badField('spec.blueprint.name', `unknown blueprint ${body.spec.blueprint.name}`);
  const version = body.spec.blueprint.version;
  if (version !== undefined) {
    const resolved = resolveVersion(bp, version);
    if (resolved.kind !== 'enabled')
      throw badField('spec.blueprint.version', `${resolved.kind} version ${version}`);
  }
}
