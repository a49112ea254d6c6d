import type { HandlerMap } from '../http/types.js';
import {
  addUserToGroups,
  assignUserToProject,
  removeUserFromGroups,
  unassignUserFromProject,
} from './memberships.js';
import { listProjects } from './projects.js';
import { createUser, deleteUser, listUsers } from './users.js';

/** Identity handlers (api/fragments/identity.yaml) keyed by operationId. */
export const identityHandlers: HandlerMap = {
  listProjects,
  listUsers,
  createUser,
  deleteUser,
  addUserToGroups,
  removeUserFromGroups,
  assignUserToProject,
  unassignUserFromProject,
};
