/**
 * Members grouped by the AbortSignal they wait with, behind one abort listener per signal: every
 * request of a run carries the run's signal, and a listener added and removed per request showed
 * in the engine's profiles (the HTTP transport's exchanges, the pacer's waiters). On abort each
 * member still in the signal's group is handed to `aborted` with the signal's reason, once.
 */
export class AbortGroups<T> {
  readonly #groups = new WeakMap<AbortSignal, Set<T>>();
  readonly #aborted: (member: T, reason: unknown) => void;

  constructor(aborted: (member: T, reason: unknown) => void) {
    this.#aborted = aborted;
  }

  /** `member` waits with `signal` (the signal's listener is added with its first member). */
  add(signal: AbortSignal, member: T): void {
    let group = this.#groups.get(signal);
    if (!group) {
      const members = new Set<T>();
      group = members;
      this.#groups.set(signal, members);
      signal.addEventListener(
        'abort',
        () => {
          for (const m of members) this.#aborted(m, signal.reason);
          members.clear();
        },
        { once: true },
      );
    }
    group.add(member);
  }

  /** `member` no longer waits with `signal` (it started, or settled). */
  delete(signal: AbortSignal, member: T): void {
    this.#groups.get(signal)?.delete(member);
  }
}
