import PQueue, { type QueueAddOptions } from 'p-queue';

type Task<T> = (options: { readonly signal?: AbortSignal }) => PromiseLike<T> | T;

/**
 * A limiter whose pace is set outside the process: at most `concurrency` requests at once, and
 * each starts only once `gate` resolves (the controller replicas' shared request budget, kept in
 * their database). An abort while waiting at the gate rejects the request unsent. Passes
 * wherever the client takes a `PQueue`.
 */
export class GatedLimiter extends PQueue {
  readonly #gate: (signal?: AbortSignal) => Promise<void>;

  constructor(options: {
    readonly gate: (signal?: AbortSignal) => Promise<void>;
    readonly concurrency?: number;
  }) {
    super({ concurrency: options.concurrency ?? 8 });
    this.#gate = options.gate;
  }

  override add<T>(task: Task<T>, options?: Partial<QueueAddOptions>): Promise<T> {
    return super.add(async (o) => {
      await this.#gate(o.signal);
      return task(o);
    }, options);
  }
}
