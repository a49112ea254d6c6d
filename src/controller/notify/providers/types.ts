import type { Alert } from '../alerts.js';

/** The kinds of receiver, one module each in this folder. */
export type ProviderType = 'webhook' | 'slack' | 'github' | 'gitlab' | 'gitea';

/**
 * A provider with its secrets read, for one delivery. Lives only while a request is built and
 * sent: never logged, never put in an error.
 */
export interface ResolvedProvider {
  readonly name: string;
  readonly type: ProviderType;
  /** The receiver's URL (webhook, Slack) or the forge's API base URL (commit statuses). */
  readonly url: string;
  /** The forge's API token (commit statuses). */
  readonly token?: string;
  /** The generic webhook's HMAC key. */
  readonly secret?: string;
  /** `owner/repo` (GitHub, Gitea) or a project id or path (GitLab). */
  readonly repository?: string;
  /** The commit status's name on the forge. */
  readonly context: string;
}

/** One HTTP POST to a receiver. */
export interface OutgoingRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Renders an alert for one provider (pure): the request to send, or undefined when this
 * provider has nothing to say about the alert (a commit status for drift, say).
 */
export type Render = (alert: Alert, target: ResolvedProvider) => OutgoingRequest | undefined;

export const USER_AGENT = 'platctl-controller';
