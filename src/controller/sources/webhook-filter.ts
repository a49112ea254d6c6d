import type { WebhookHeaders } from './webhook-signature.js';

/** Whether a verified webhook asks for a run, and why not when it does not. */
export type WebhookRelevance =
  | { readonly run: true }
  | { readonly run: false; readonly reason: string };

/** Event headers of the git hosts, and the value each uses for a push. */
const EVENT_HEADERS: readonly [string, (v: string) => boolean][] = [
  ['x-github-event', (v) => v === 'push'],
  ['x-gitea-event', (v) => v === 'push'],
  ['x-gogs-event', (v) => v === 'push'],
  ['x-gitlab-event', (v) => v === 'Push Hook'],
];

/**
 * Decides whether a verified webhook should start a run (pure): only a push (a `ping` or any other
 * event is acknowledged and ignored), and only to the followed `branch` (the body's `ref` is
 * `refs/heads/<branch>`). A request that names no event, or a body without `ref`, runs: it cannot
 * be told apart, and a run that finds nothing new changes nothing.
 */
export function webhookRelevance(
  headers: WebhookHeaders,
  body: Buffer,
  branch: string | undefined,
): WebhookRelevance {
  for (const [name, isPush] of EVENT_HEADERS) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined && !isPush(value)) {
      return { run: false, reason: `event ${value} is not a push` };
    }
  }
  if (branch === undefined) return { run: true };
  let ref: unknown;
  try {
    ref = (JSON.parse(body.toString('utf8')) as { ref?: unknown }).ref;
  } catch {
    return { run: true };
  }
  if (typeof ref === 'string' && ref !== `refs/heads/${branch}`) {
    return { run: false, reason: `push to ${ref}, not to the followed branch ${branch}` };
  }
  return { run: true };
}
