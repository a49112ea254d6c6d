/**
 * How the state divides into shards when controller replicas split the work (`--shard-by
 * project`): one shard per project, and one `global` shard for the kinds that belong to no
 * project (users). Pure.
 */

/** The shard of the kinds without a project: whichever replica holds it reconciles users. */
export const GLOBAL_SHARD = 'global';

/** The shard of project `name`. */
function projectShard(name: string): string {
  return `project:${name}`;
}

/**
 * The shard an identity key (`Kind/project[/workspace]/name`, or `User/name`) belongs to: its
 * project's, or {@link GLOBAL_SHARD} for a kind without a project.
 */
export function shardOfKey(key: string): string {
  const [kind, project] = key.split('/');
  return kind === 'User' || project === undefined ? GLOBAL_SHARD : projectShard(project);
}

/** The shard of a resource (a manifest's metadata with its kind): as {@link shardOfKey} decides. */
export function shardOfResource(r: {
  readonly kind: string;
  readonly project?: string | undefined;
}): string {
  return r.kind === 'User' || r.project === undefined ? GLOBAL_SHARD : projectShard(r.project);
}
