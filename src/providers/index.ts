/** The providers layer: the one API client, one adapter per kind, and the helpers ports need. */

export type { ApiClientOptions } from './client/api-client.js';
export { createApiClient } from './client/api-client.js';
export { resolveConnection } from './client/connection.js';
export { PACER_GROUP_MS } from './client/pacer.js';
export { createProfileDirectory } from './profile-directory.js';
export { createProjectDirectory } from './project-directory.js';
export { createProviderRegistry } from './registry.js';
export { manifestSecrets } from './secrets.js';
