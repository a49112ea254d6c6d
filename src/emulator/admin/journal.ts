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

/**
 * An append-only, bounded, in-memory record of API requests, read by `GET /_emulator/journal`.
 * A ring buffer: recording costs the same whether it is full or not, and since sequence numbers
 * are consecutive, a read finds its first entry by arithmetic and costs what it returns.
 */
export class Journal {
  readonly #capacity: number;
  #ring: (JournalEntry | undefined)[];
  #seq = 0;
  /** How many of the newest entries are held (at most the capacity). */
  #held = 0;

  /** `capacity` (10,000 unless set) is how many of the newest entries are kept. */
  constructor(capacity = MAX_ENTRIES) {
    this.#capacity = capacity;
    this.#ring = new Array(capacity);
  }

  record(entry: Omit<JournalEntry, 'seq'>): void {
    this.#seq++;
    this.#ring[this.#seq % this.#capacity] = { seq: this.#seq, ...entry };
    if (this.#held < this.#capacity) this.#held++;
  }

  /** Entries with `seq > since`, oldest first. */
  since(since = 0): JournalEntry[] {
    const first = Math.max(Math.floor(since) + 1, this.#seq - this.#held + 1);
    const out: JournalEntry[] = [];
    for (let seq = first; seq <= this.#seq; seq++) out.push(this.#ring[seq % this.#capacity]!);
    return out;
  }

  /** The sequence number of the last entry (0 when empty). */
  get last(): number {
    return this.#seq;
  }

  /** Forgets every entry; sequence numbers go on from where they were. */
  clear(): void {
    this.#ring = new Array(this.#capacity);
    this.#held = 0;
  }
}
