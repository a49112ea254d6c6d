import { base, commitStateOf, description, ownerRepo, statusRequest } from './commit-status.js';
import type { Render } from './types.js';

/**
 * A Gitea (or Forgejo) commit status on the alert's revision:
 * `POST /repos/{owner}/{repo}/statuses/{sha}` under the instance's API base
 * (`https://<host>/api/v1`, which has no default) with `{state, context, description}` and
 * `Authorization: token <token>`; undefined for alerts about no single commit. Pure.
 */
export const renderGitea: Render = (alert, target) => {
  const state = commitStateOf(alert);
  if (state === undefined || alert.revision === undefined) return undefined;
  return statusRequest(
    `${base(target)}/repos/${ownerRepo(target)}/statuses/${encodeURIComponent(alert.revision)}`,
    'token',
    target,
    {
      state,
      context: target.context,
      description: description(alert),
      ...(alert.url ? { target_url: alert.url } : {}),
    },
  );
};
