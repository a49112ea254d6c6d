import type { Alert } from '../alerts.js';
import { type OutgoingRequest, type ResolvedProvider, USER_AGENT } from './types.js';

/** The state a commit is marked with, before each forge's own spelling. */
export type CommitState = 'success' | 'failure' | 'pending';

/**
 * The state an alert sets on its revision, or undefined when it says nothing about one commit
 * (drift, recovery: the commit's state comes from its own apply or rejection). Pure.
 */
export function commitStateOf(alert: Alert): CommitState | undefined {
  if (alert.revision === undefined) return undefined;
  switch (alert.kind) {
    case 'revision-applied':
      return 'success';
    case 'revision-rejected':
    case 'run-failed':
      return 'failure';
    case 'prune-blocked':
    case 'approval-required':
      return 'pending';
    case 'drift-detected':
    case 'recovered':
      return undefined;
    default: {
      const never: never = alert.kind;
      return never;
    }
  }
}

/** Forges cut descriptions (GitHub at 140 characters). Pure. */
export function description(alert: Alert): string {
  return alert.summary.length <= 140 ? alert.summary : `${alert.summary.slice(0, 137)}...`;
}

/** `owner/repo` split for the forges that address a repository that way. Pure. */
export function ownerRepo(target: ResolvedProvider): string {
  const [owner, repo] = (target.repository ?? '').split('/');
  return `${encodeURIComponent(owner ?? '')}/${encodeURIComponent(repo ?? '')}`;
}

/** The API base without a trailing slash. Pure. */
export function base(target: ResolvedProvider): string {
  return target.url.replace(/\/+$/, '');
}

/**
 * A POST of `body` as JSON with the token in `Authorization` (`<scheme> <token>`): the only
 * place a provider's token goes. Pure.
 */
export function statusRequest(
  url: string,
  scheme: 'Bearer' | 'token',
  target: ResolvedProvider,
  body: Record<string, unknown>,
  extra: Readonly<Record<string, string>> = {},
): OutgoingRequest {
  return {
    url,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...extra,
      authorization: `${scheme} ${target.token ?? ''}`,
    },
    body: JSON.stringify(body),
  };
}
