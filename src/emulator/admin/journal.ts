/** One API request as the journal records it: never a key value, only which header carried it. */
export interface JournalEntry {
  readonly seq: number;
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly status: number;
  /** The (lower-cased) auth header name that was used, or null when none was accepted. */
  readonly authHeader: string | null;
  readonly operationId: string | null;
}

const MAX_ENTRIES = 10_000;

/** An append-only, bounded, in-memory record of API requests, read by `GET /_emulator/journal`. */
export class Journal {
  #entries: JournalEntry[] = [];
  #seq = 0;

  record(entry: Omit<JournalEntry, 'seq'>): void {
    this.#seq++;
    this.#entries.push({ seq: this.#seq, ...entry });
    if (this.#entries.length > MAX_ENTRIES)
      this.#entries.splice(0, this.#entries.length - MAX_ENTRIES);
  }

  /** Entries with `seq > since`, oldest first. */
  since(since = 0): JournalEntry[] {
    return this.#entries.filter((e) => e.seq > since);
  }

  /** The sequence number of the last entry (0 when empty). */
  get last(): number {
    return this.#seq;
  }

  clear(): void {
    this.#entries = [];
  }
}
