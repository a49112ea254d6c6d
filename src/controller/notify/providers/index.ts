import type { Alert } from '../alerts.js';
import { commitStateOf } from './commit-status.js';
import { renderGitea } from './gitea.js';
import { GITHUB_API, renderGithub } from './github.js';
import { GITLAB_API, renderGitlab } from './gitlab.js';
import { renderSlack } from './slack.js';
import type { ProviderType, Render } from './types.js';
import { renderWebhook } from './webhook.js';

export * from './types.js';

/** Each provider type's renderer: the registry the notifier looks types up in. */
export const RENDERERS: Record<ProviderType, Render> = {
  webhook: renderWebhook,
  slack: renderSlack,
  github: renderGithub,
  gitlab: renderGitlab,
  gitea: renderGitea,
};

/** The API base URL a type uses when the config names none (Gitea, webhooks: none). */
export const DEFAULT_URLS: Partial<Record<ProviderType, string>> = {
  github: GITHUB_API,
  gitlab: GITLAB_API,
};

/** Types that set commit statuses: they need a token and a repository. */
const COMMIT_STATUS_TYPES: readonly ProviderType[] = ['github', 'gitlab', 'gitea'];

/** Whether a provider of `type` has anything to say about `alert` (commit statuses: a state). */
export function applies(type: ProviderType, alert: Alert): boolean {
  return COMMIT_STATUS_TYPES.includes(type) ? commitStateOf(alert) !== undefined : true;
}
