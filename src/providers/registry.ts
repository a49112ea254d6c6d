import type { ProviderRegistry } from '../model/provider.js';
import { blueprintPublishProvider } from './blueprint-publish.js';
import { blueprintVersionProvider } from './blueprint-version.js';
import { clusterProvider } from './cluster.js';
import { clusterControllersProvider } from './cluster-controllers.js';
import { computeInstanceProvider } from './compute-instance.js';
import { governanceProvider } from './governance.js';
import { projectAssignmentProvider } from './project-assignment.js';
import { serviceProvider } from './service.js';
import { userProvider } from './user.js';
import { workspaceProvider } from './workspace.js';

/** One provider per kind. Providers are stateless; per-run caches hang off the ApiClient. */
export function createProviderRegistry(): ProviderRegistry {
  return {
    User: userProvider,
    Cluster: clusterProvider,
    Service: serviceProvider,
    Workspace: workspaceProvider,
    ComputeInstance: computeInstanceProvider,
    ProjectAssignment: projectAssignmentProvider,
    BlueprintVersion: blueprintVersionProvider,
    BlueprintPublish: blueprintPublishProvider,
    ClusterControllers: clusterControllersProvider,
    Policy: governanceProvider('Policy'),
    PowerSchedule: governanceProvider('PowerSchedule'),
    ChangeWindow: governanceProvider('ChangeWindow'),
  };
}
