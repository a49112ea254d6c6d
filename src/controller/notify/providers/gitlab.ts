import {
  base,
  type CommitState,
  commitStateOf,
  description,
  statusRequest,
} from './commit-status.js';
import type { Render } from './types.js';

/** gitlab.com's API; a self-managed instance's is `https://<host>/api/v4`. */
export const GITLAB_API = 'https://gitlab.com/api/v4';

/** GitLab spells a failure `failed`. */
const STATES: Record<CommitState, string> = {
  success: 'success',
  failure: 'failed',
  pending: 'pending',
};

/**
 * A GitLab commit status on the alert's revision: `POST /projects/{id}/statuses/{sha}` with
 * `{state, name, description}`, the project as its numeric id or URL-encoded path
 * (`group/project`); undefined for alerts about no single commit. Pure.
 */
export const renderGitlab: Render = (alert, target) => {
  const state = commitStateOf(alert);
  if (state === undefined || alert.revision === undefined) return undefined;
  const project = encodeURIComponent(target.repository ?? '');
  return statusRequest(
    `${base(target)}/projects/${project}/statuses/${encodeURIComponent(alert.revision)}`,
    'Bearer',
    target,
    {
      state: STATES[state],
      name: target.context,
      description: description(alert),
      ...(alert.url ? { target_url: alert.url } : {}),
    },
  );
};
