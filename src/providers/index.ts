/** The providers layer: the one API client, one adapter per kind, and the helpers ports need. */

export type { ApiClientOptions, RequestEvent, RetryEvent } from './client/api-client.js';
export { createApiClient, DEFAULT_GROUPS } from './client/api-client.js';
export type { Connection, ConnectionInput } from './client/connection.js';
export { resolveConnection } from './client/connection.js';
export { createProjectDirectory, listProjects } from './project-directory.js';
export { createProviderRegistry } from './registry.js';
export { resolveSecret } from './secrets.js';
