import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read bodies by their documented shape
  readonly json: any;
  /** When it arrived (performance.now(), ms). */
  readonly at: number;
}

/** A loopback HTTP server standing in for Slack, a webhook and a forge's API. */
export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly received: Received[];
  /**
   * The status to answer a request with (200 unless set), or a status with headers; 0 never
   * answers (a hung receiver).
   */
  answer: (r: Received) => number | { status: number; headers: Record<string, string> };
  /** The first received request matching `pred`; bounded by `ms`. */
  waitFor(pred: (r: Received) => boolean, ms?: number): Promise<Received>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 on a free port (I/O). */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let waiters: { pred: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  const receiver: Omit<Receiver, 'url'> & { url: string } = {
    url: '',
    received,
    answer: () => 200,
    waitFor(pred, ms = 20_000) {
      const found = received.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w.resolve !== done);
          const seen = received.map((r) => `${r.path} ${r.body.slice(0, 80)}`).join('\n');
          reject(new Error(`no matching request within ${ms} ms; got:\n${seen}`));
        }, ms);
        const done = (r: Received) => {
          clearTimeout(timer);
          resolve(r);
        };
        waiters.push({ pred, resolve: done });
      });
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const r: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json,
        at: performance.now(),
      };
      received.push(r);
      const answer = receiver.answer(r);
      const { status, headers } =
        typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      if (status > 0) {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end('{}');
      }
      waiters = waiters.filter((w) => {
        if (!w.pred(r)) return true;
        w.resolve(r);
        return false;
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
