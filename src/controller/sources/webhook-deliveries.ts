import type { WebhookHeaders } from './webhook-signature.js';

/** The headers naming a delivery, by git host: a redelivery or a replay carries the same id. */
const DELIVERY_HEADERS = [
  'x-github-delivery',
  'x-gitea-delivery',
  'x-gogs-delivery',
  'x-gitlab-event-uuid',
] as const;

/** The delivery id of a webhook request, when its git host sends one. Pure. */
export function deliveryId(headers: WebhookHeaders): string | undefined {
  for (const name of DELIVERY_HEADERS) {
    const raw = headers[name];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (value) return `${name}:${value}`;
  }
  return undefined;
}

/**
 * The delivery ids seen lately, so that a delivery replayed (a captured signed request sent
 * again, or a host's redelivery) is taken once: at most `capacity` ids, each forgotten
 * `windowMs` after it was first seen. Bounded in memory whatever arrives. No I/O; time from `now`.
 */
export class DeliveryWindow {
  readonly #seen = new Map<string, number>();
  readonly #capacity: number;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(options: { capacity?: number; windowMs?: number; now: () => number }) {
    this.#capacity = options.capacity ?? 10_000;
    this.#windowMs = options.windowMs ?? 24 * 3600 * 1000;
    this.#now = options.now;
  }

  /** True the first time `id` is seen in the window (and remembers it); false for a repeat. */
  first(id: string): boolean {
    const now = this.#now();
    // oldest first (insertion order): drop what left the window, then what exceeds the capacity
    for (const [seen, at] of this.#seen) {
      if (now - at < this.#windowMs && this.#seen.size < this.#capacity) break;
      this.#seen.delete(seen);
    }
    if (this.#seen.has(id)) return false;
    this.#seen.set(id, now);
    return true;
  }
}
