import { type LineProcess, spawnPlatctl } from '../../helpers/process.js';

/** A `platctl controller` running as its own process (the real CLI, real signals). */
export interface ControllerProcess {
  readonly proc: LineProcess;
  /** The port it listens on, once it said `controller started`. */
  readonly port: number;
  /** Resolves with the exit code once it has exited. */
  readonly exited: Promise<number | null>;
  /** GET (or another method) on its HTTP server; JSON bodies parsed. */
  http(
    path: string,
    init?: { method?: string; token?: string; body?: unknown },
    // biome-ignore lint/suspicious/noExplicitAny: tests read bodies by their documented shape
  ): Promise<{ status: number; body: any; text: string }>;
  /** Polls `/status` until `pred` holds; bounded, so a broken controller fails the test. */
  // biome-ignore lint/suspicious/noExplicitAny: as above
  waitStatus(pred: (s: any) => boolean, ms?: number): Promise<any>;
  /** Everything it wrote. */
  output(): string;
}

/** Starts `platctl controller ...args` with `env` added, in `cwd`; resolves once it listens. */
export async function startControllerProcess(
  args: readonly string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<ControllerProcess> {
  const proc = spawnPlatctl(['controller', '--listen', '127.0.0.1:0', ...args], env, [], cwd);
  const exited = new Promise<number | null>((r) => proc.child.on('close', (code) => r(code)));
  const started = await Promise.race([
    proc.waitFor(/"event":"started"/, 0, 30_000),
    exited.then((code) => {
      throw new Error(`controller exited ${code}: ${proc.lines.join('\n')}`);
    }),
  ]);
  const port = Number(/"listen":"[^"]*:(\d+)"/.exec(started)?.[1]);
  const http: ControllerProcess['http'] = async (path, init = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null; // /metrics is text
    }
    return { status: res.status, body, text };
  };
  return {
    proc,
    port,
    exited,
    http,
    async waitStatus(pred, ms = 30_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const s = (await http('/status')).body;
        if (pred(s)) return s;
        if (Date.now() > deadline) throw new Error(`status never matched: ${JSON.stringify(s)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    output: () => proc.lines.join('\n'),
  };
}

/** Polls `probe` until it returns a value that is not undefined; bounded by `ms`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
