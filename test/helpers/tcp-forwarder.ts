import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/**
 * A loopback TCP forwarder to `target` that a test can freeze: while frozen, nothing passes in
 * either direction and no connection is closed (a silent network cut: the client's queries and
 * the server's answers wait in buffers). `close()` destroys every connection and stops listening.
 */
export interface TcpForwarder {
  readonly port: number;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

/** Starts a forwarder on 127.0.0.1 to `target` (host:port) on a free port (I/O). */
export async function startForwarder(target: {
  host: string;
  port: number;
}): Promise<TcpForwarder> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const pairs: [Socket, Socket][] = [];
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    pairs.push([client, upstream]);
    if (frozen) freezePair(client, upstream);
  });
  const freezePair = (a: Socket, b: Socket) => {
    a.unpipe(b);
    b.unpipe(a);
    a.pause();
    b.pause();
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    freeze() {
      frozen = true;
      for (const [a, b] of pairs) freezePair(a, b);
    },
    thaw() {
      frozen = false;
      for (const [a, b] of pairs) {
        if (a.destroyed || b.destroyed) continue;
        a.pipe(b);
        b.pipe(a);
        a.resume();
        b.resume();
      }
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
