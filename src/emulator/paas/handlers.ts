import type { HandlerMap } from '../http/types.js';
import {
  deleteComputeInstance,
  getComputeInstance,
  listComputeInstances,
  publishComputeInstance,
  upsertComputeInstance,
} from './compute.js';
import { powerComputeInstance } from './power.js';
import {
  createService,
  deleteService,
  getService,
  listServices,
  publishService,
} from './services.js';
import { deleteWorkspace, getWorkspace, listWorkspaces, upsertWorkspace } from './workspaces.js';

/**
 * The PaaS operations (VPC services, workspaces, compute instances, power actions) keyed by the
 * operationIds of `api/fragments/paas.yaml`. Inputs arrive validated against that document.
 */
export const paasHandlers: HandlerMap = {
  listServices,
  createService,
  getService,
  deleteService,
  publishService,
  listWorkspaces,
  upsertWorkspace,
  getWorkspace,
  deleteWorkspace,
  listComputeInstances,
  upsertComputeInstance,
  getComputeInstance,
  deleteComputeInstance,
  publishComputeInstance,
  powerComputeInstance,
};
