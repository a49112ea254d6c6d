/** The engine's state store: inventory, last-applied manifests, pending creates and the run lease. */

export { processHolder } from './holder.js';
export { describeHolder } from './lease.js';
export { openShardCoordinator, openState, openStateLazily, resolveStateTarget } from './open.js';
export type { Fence } from './pg/lease.js';
export type { ShardCoordinator } from './pg/shard-coordinator.js';
export { isPostgresUrl, redactUrl } from './pg/target.js';
export { GLOBAL_SHARD, shardOfKey, shardOfResource } from './shards.js';
export { DEFAULT_STATE_PATH, openStateStore } from './sqlite-store.js';
export type * from './types.js';
