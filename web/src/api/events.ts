import { createSseParser } from '../lib/sse.js';
import { token } from './client.js';
import type { RunItem } from './runs.js';
import type { Status } from './status.js';

/** What the live channel delivers. */
export interface LiveHandlers {
  status(status: Status): void;
  run(run: RunItem): void;
  /** `stream` while the event stream is open, `polling` while the page polls instead. */
  mode(mode: 'stream' | 'polling'): void;
}

/**
 * Follows `GET /api/v1/events` through `fetch` (so the token travels in `Authorization`, never in
 * the URL, which EventSource would need). While the stream is down the caller polls (mode
 * `polling`); the stream is retried every `retryMs`. Returns a function that stops everything.
 */
export function followEvents(handlers: LiveHandlers, retryMs = 10_000): () => void {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const connect = async (): Promise<void> => {
    try {
      const res = await fetch('/api/v1/events', {
        headers: { authorization: `Bearer ${token.get() ?? ''}`, accept: 'text/event-stream' },
        signal: abort.signal,
        cache: 'no-store',
      });
      if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
      handlers.mode('stream');
      const parse = createSseParser();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const e of parse(value)) {
          if (e.event === 'status') handlers.status(JSON.parse(e.data) as Status);
          else if (e.event === 'run') handlers.run(JSON.parse(e.data) as RunItem);
        }
      }
    } catch {
      // fall through to polling; an abort means we are done
    }
    if (abort.signal.aborted) return;
    handlers.mode('polling');
    timer = setTimeout(() => void connect(), retryMs);
  };
  void connect();
  return () => {
    abort.abort();
    clearTimeout(timer);
  };
}
