import pg from 'pg';
import type { PostgresTarget } from './target.js';

/** Bounds on a session, so a dead or stalled peer is noticed (milliseconds). */
export interface SessionLimits {
  /** The server ends a session idle in a transaction this long (a stopped or cut-off client). */
  readonly idleInTransactionMs: number;
  /** The server ends a session idle this long; 0 for never. Lock sessions ping well within it. */
  readonly idleSessionMs: number;
}

/**
 * Driver settings for one session on `target`: search_path on platctl's schema, TCP keepalives
 * on both ends (the server drops a half-open connection in about 25 s; the client notices a
 * dead server), and the server-side idle timeouts of `limits`.
 */
export function sessionConfig(target: PostgresTarget, limits: SessionLimits): pg.ClientConfig {
  const settings = [
    `search_path=${target.schema}`,
    `idle_in_transaction_session_timeout=${limits.idleInTransactionMs}`,
    `idle_session_timeout=${limits.idleSessionMs}`,
    'tcp_keepalives_idle=10',
    'tcp_keepalives_interval=5',
    'tcp_keepalives_count=3',
  ];
  return {
    connectionString: target.connectionString,
    options: settings.map((s) => `-c ${s}`).join(' '),
    application_name: 'platctl',
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    connectionTimeoutMillis: 10_000,
  };
}

/**
 * Opens a client and connects it (I/O). An error on an idle client (server gone, session ended
 * by a timeout) would crash the process; it is handed to `onLost` instead.
 */
export async function connectSession(
  config: pg.ClientConfig,
  onLost: (err?: Error) => void,
): Promise<pg.Client> {
  const client = new pg.Client(config);
  client.on('error', (err) => onLost(err));
  client.on('end', () => onLost());
  await client.connect();
  chainQueries(client);
  return client;
}

/**
 * Makes `client` send each query once the one before has ended, in the order they were made. A
 * session is shared by its pings, lease renewals and shard queries, which may overlap; pg queues
 * a query sent while another runs but deprecates doing so (pg 9 refuses it). Promise-style
 * calls only, the only ones platctl makes.
 */
function chainQueries(client: pg.Client): void {
  const send = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  let tail: Promise<unknown> = Promise.resolve();
  const chained = (...args: unknown[]) => {
    const result = tail.then(() => send(...args));
    tail = result.catch(() => undefined);
    return result;
  };
  (client as unknown as { query: typeof chained }).query = chained;
}

/**
 * Ends `client`'s connection at once, sending nothing (the server may not answer: a cut
 * network), and marks its session ended. The server frees what the session held when it sees
 * the connection close, or when its keepalives or idle timeout end it.
 */
export function destroySession(client: pg.Client, ended: AbortController): void {
  ended.abort();
  (
    client as unknown as { connection?: { stream?: { destroy(): void } } }
  ).connection?.stream?.destroy();
}
