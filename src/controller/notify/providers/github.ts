import { base, commitStateOf, description, ownerRepo, statusRequest } from './commit-status.js';
import type { Render } from './types.js';

/** The public API; GitHub Enterprise Server's is `https://<host>/api/v3`. */
export const GITHUB_API = 'https://api.github.com';

/**
 * A GitHub commit status on the alert's revision: `POST /repos/{owner}/{repo}/statuses/{sha}`
 * with `{state, context, description}`; states `success`, `failure`, `pending` as
 * {@link commitStateOf} says; undefined for alerts about no single commit. Pure.
 */
export const renderGithub: Render = (alert, target) => {
  const state = commitStateOf(alert);
  if (state === undefined || alert.revision === undefined) return undefined;
  return statusRequest(
    `${base(target)}/repos/${ownerRepo(target)}/statuses/${encodeURIComponent(alert.revision)}`,
    'Bearer',
    target,
    {
      state,
      context: target.context,
      description: description(alert),
      ...(alert.url ? { target_url: alert.url } : {}),
    },
    { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  );
};
