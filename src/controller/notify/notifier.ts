import { readFileSync } from 'node:fs';
import type { Clock } from '../../core/clock.js';
import { redact } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { retryAfterMs } from '../../providers/client/retry.js';
import { type Alert, aboutSource, atLeast, type StatusView, type StepView } from './alerts.js';
import type { NotificationConfig, ProviderConfig } from './config.js';
import {
  type DeliveryOptions,
  type DeliveryOutcome,
  DeliveryQueue,
  type SendOutcome,
} from './delivery.js';
import { fetchHttp, type NotifyHttp } from './http.js';
import type { AlertMemory } from './memory.js';
import {
  applies,
  DEFAULT_URLS,
  type ProviderType,
  RENDERERS,
  type ResolvedProvider,
} from './providers/index.js';
import { redactAlert } from './redact.js';
import { AlertTracker } from './tracker.js';

/**
 * The controller's port for notifications: told about each finished run, it returns at once;
 * delivery happens on queues of its own, so a slow or broken receiver never holds up a run.
 */
export interface Notifier {
  /** Takes the conditions a restored status already shows, so a restart re-sends none of them. */
  seed(status: StatusView): void;
  /**
   * What it remembers of the conditions already alerted (JSON), saved with the status: the
   * replica that leads next restores it and re-sends none of them.
   */
  memory(): AlertMemory;
  /**
   * Takes what the previous leader remembered in place of its own; without a document it knows
   * (a status saved before alerts were remembered), seeds from `status` instead.
   */
  restore(doc: unknown, status: StatusView): void;
  /** Adds what the previous holder of a shard taken over remembered of that shard's keys. */
  merge(doc: unknown): void;
  /** Derives the alerts of the run `step` that left the controller in `status`, and queues them. */
  observe(status: StatusView, step: StepView): void;
  /** Waits up to `graceMs` (default 3000) for queued alerts to go out, then drops the rest. */
  close(graceMs?: number): Promise<void>;
}

export interface NotifierDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  /** @default fetchHttp */
  readonly http?: NotifyHttp;
  /** Reads a provider's urlFile, tokenFile or secretFile at each delivery (so rotation needs no restart). */
  readonly readFile?: (path: string) => string;
  /**
   * Literal secrets no alert may carry (API key, git token, webhook secret, control token); read
   * at each alert, so a list the caller keeps current covers rotated values.
   */
  readonly secrets?: readonly (string | undefined)[];
  /** Counts each alert's fate per provider type (metrics). */
  readonly onDelivery?: (type: ProviderType, outcome: DeliveryOutcome) => void;
  readonly delivery?: DeliveryOptions;
}

/** Builds the notifier of a validated config (see `config.ts`); starts no I/O until an alert. */
export function createNotifier(config: NotificationConfig, deps: NotifierDeps): Notifier {
  const tracker = new AlertTracker();
  const http = deps.http ?? fetchHttp;
  const read = deps.readFile ?? ((p: string) => readFileSync(p, 'utf8').trim());
  const { clock, logger } = deps;
  const queues = config.providers.map((p) => ({
    provider: p,
    queue: new DeliveryQueue<Alert>(
      {
        clock,
        send: (alert, signal) => deliver(p, alert, signal, read, http, () => clock.now()),
        onOutcome: (outcome, alert, d) => {
          deps.onDelivery?.(p.type, outcome);
          const line = {
            event: `notify-${outcome}`,
            provider: p.name,
            type: p.type,
            alert: alert.kind,
            revision: alert.revision,
            ...d,
          };
          if (outcome === 'sent') logger.debug(line, 'notification sent');
          else logger.warn(line, `notification ${outcome}`);
        },
      },
      deps.delivery,
    ),
  }));
  /** The run's alerts, as this replica sends them: redacted, tagged, logged once each. */
  const alertsOf = (status: StatusView, step: StepView): Alert[] => {
    const at = new Date(clock.now()).toISOString();
    const shards = status.shards;
    const out: Alert[] = [];
    for (const raw of tracker.next(status, step, at)) {
      // sharded: each replica speaks for its shards; one (holding `global`) for the source
      if (shards && !shards.held.includes('global') && aboutSource(raw)) continue;
      const tagged = shards ? { ...raw, replica: shards.replica } : raw;
      const alert = withRunLink(redactAlert(tagged, deps.secrets ?? []), config.dashboardUrl);
      const { kind, severity, revision, runId } = alert;
      logger.info({ event: 'alert', kind, severity, revision, runId }, alert.summary);
      out.push(alert);
    }
    return out;
  };
  return {
    seed: (status) => tracker.seed(status),
    memory: () => tracker.memory(),
    restore: (doc, status) => {
      if (!tracker.restore(doc)) tracker.seed(status);
    },
    merge: (doc) => {
      tracker.merge(doc);
    },
    observe(status, step) {
      // a fault here must never reach the loop that called it: reconciling goes on regardless
      try {
        for (const alert of alertsOf(status, step)) {
          for (const { provider, queue } of queues) if (wants(provider, alert)) queue.push(alert);
        }
      } catch (err) {
        logger.error({ event: 'notify-error' }, redact(String(err)));
      }
    },
    async close(graceMs = 3_000) {
      await Promise.all(queues.map(({ queue }) => queue.close(graceMs)));
    },
  };
}

/** `alert` with its run's page on the dashboard at `base`, when both are known. Pure. */
export function withRunLink(alert: Alert, base: string | undefined): Alert {
  if (base === undefined || alert.runId === undefined) return alert;
  return { ...alert, url: `${base.replace(/\/+$/, '')}/runs/${encodeURIComponent(alert.runId)}` };
}

/** The provider's filters: events, minimum severity, and whether its kind speaks of this alert. */
function wants(p: ProviderConfig, alert: Alert): boolean {
  if (p.events && !p.events.includes(alert.kind)) return false;
  if (!atLeast(alert.severity, p.minSeverity ?? 'info')) return false;
  return applies(p.type, alert);
}

/** One attempt: read the provider's files, render, send, classify. Never throws, never names a URL. */
async function deliver(
  p: ProviderConfig,
  alert: Alert,
  signal: AbortSignal,
  read: (path: string) => string,
  http: NotifyHttp,
  now: () => number,
): Promise<SendOutcome> {
  let target: ResolvedProvider;
  try {
    target = {
      name: p.name,
      type: p.type,
      url: p.urlFile !== undefined ? read(p.urlFile) : (p.url ?? DEFAULT_URLS[p.type] ?? ''),
      ...(p.tokenFile !== undefined ? { token: read(p.tokenFile) } : {}),
      ...(p.secretFile !== undefined ? { secret: read(p.secretFile) } : {}),
      ...(p.repository !== undefined ? { repository: p.repository } : {}),
      context: p.context ?? 'platctl',
    };
  } catch {
    return { ok: false, retryable: false, reason: 'a file the provider names cannot be read' };
  }
  // the provider's own secrets leave only where they belong (the URL, Authorization, the HMAC)
  const own = [p.urlFile !== undefined ? target.url : undefined, target.token, target.secret];
  const request = RENDERERS[p.type](redactAlert(alert, own), target);
  if (!request) return { ok: true };
  try {
    const { status, retryAfter } = await http(request, signal);
    if (status >= 200 && status < 300) return { ok: true };
    // the receiver's own ask; the queue caps it at its largest backoff
    const asked = retryAfterMs(retryAfter, now(), Number.POSITIVE_INFINITY);
    return {
      ok: false,
      retryable: status === 429 || status >= 500,
      reason: `HTTP ${status}`,
      ...(asked !== undefined ? { retryAfterMs: asked } : {}),
    };
  } catch (err) {
    const timeout = (err as Error).name === 'TimeoutError';
    return { ok: false, retryable: true, reason: timeout ? 'timeout' : 'network' };
  }
}
