/**
 * Keeps an answer to `GET /api/v1/status` from overwriting a newer status the event stream
 * delivered while that request was in flight. The stream sends a status at once and then each
 * change, and never the same one twice: a stale answer taken after it stayed on the page until
 * the next change (the Drifted count read 0 for 30 s while the resource's page said Drifted:
 * a CI run of e2e-pages). While the stream is up it alone is the truth; while it is down the
 * reads are, as nothing streams.
 */
export interface StatusOrder {
  /** The stream delivered a status. */
  streamed(): void;
  /** A read of the status starts: the function it returns says whether its answer may be taken. */
  read(): () => boolean;
}

export function statusOrder(): StatusOrder {
  let delivered = 0;
  return {
    streamed() {
      delivered++;
    },
    read() {
      const at = delivered;
      return () => delivered === at;
    },
  };
}
