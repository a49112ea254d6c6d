import type { HandlerMap } from '../http/types.js';
import {
  createCluster,
  deleteCluster,
  getClusterDetail,
  listClusters,
  updateControllerDeployment,
} from './clusters.js';

/** Cluster handlers (api/fragments/clusters.yaml) keyed by operationId. */
export const clusterHandlers: HandlerMap = {
  listClusters,
  createCluster,
  getCluster: getClusterDetail,
  deleteCluster,
  updateControllerDeployment,
};
