/** One server-sent event: its `event:` name (`message` when none) and its joined `data:` lines. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental `text/event-stream` parser (pure; no DOM): feed it decoded chunks as they
 * arrive, in any split, and it returns the events completed so far. Comments (`: ping`) and
 * fields other than `event` and `data` are ignored; an event with no data is dropped, as
 * EventSource does.
 */
export function createSseParser(): (chunk: string) => SseEvent[] {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  return (chunk) => {
    buffer += chunk;
    const out: SseEvent[] = [];
    for (;;) {
      const nl = buffer.search(/\r\n|\r|\n/);
      if (nl < 0) break;
      // a lone \r at the very end may be the first half of \r\n: wait for the next chunk
      if (buffer[nl] === '\r' && nl === buffer.length - 1) break;
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n') });
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    return out;
  };
}
