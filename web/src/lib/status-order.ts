/**
 * Which answers to `GET /api/v1/status` the page may take while the event stream also delivers
 * status (pure; no DOM). The stream sends the status at once and then every change, each once;
 * a read's answer is the status when the server answered, which may be before a change the
 * stream delivered first: a read answered just before a run ended, reaching the page after the
 * stream's status of that run, put the old counts back and kept them until the next change
 * (e2e-pages' Drifted count read 0 for 30 s while the resource's page said Drifted).
 *
 * So an answer is taken only when nothing streamed since its read was sent. One that is not was
 * answered no later than something the stream delivered after it, and whatever changed since
 * comes through the stream, which sends each change after the last it sent. While the stream is
 * down nothing streams, and every read (the page polls then) is taken.
 */
export interface StatusOrder {
  /** The stream delivered a status. */
  streamed(): void;
  /** A read is sent: the function returned says, when its answer comes, whether to take it. */
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
