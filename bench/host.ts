/**
 * Host calibration: `npx tsx bench/host.ts [--requests 10000]`.
 *
 * Issue 27's CPU targets are absolute figures, and the shared 2-vCPU machines these benchmarks
 * run on differ by up to 2× between sessions in exactly what a paced run is made of: an event
 * loop's wake (the vCPU halted and woken, its caches cold) and node:http's per-request path.
 * This measures both with nothing of platctl in them, so a row of `bench/engine.ts` can be read
 * against the host it ran on:
 *
 * - CPU per wake: a 1 ms timer 5,000 times in an otherwise idle process;
 * - CPU per request of node:http on a keep-alive agent against a trivial loopback server in a
 *   child process (a 500-byte JSON answer), paced as the engine's pacer does at 1,000 rps (four
 *   starts every 4 ms) and unpaced (64 in flight).
 *
 * Loopback only; bounded by `--requests`; the child server is killed at the end.
 */

import { spawn } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '10000' } } });
const requests = Number(values.requests);

const SERVER = `
const http = require('node:http');
const body = JSON.stringify({ metadata: { name: 'n'.repeat(20), project: 'p' },
  spec: { text: 'x'.repeat(380) }, status: { phase: 'Ready' } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

function cpuMicros(since: NodeJS.CpuUsage): { total: number; user: number } {
  const used = process.cpuUsage(since);
  return { total: used.user + used.system, user: used.user };
}

async function wakes(n: number): Promise<string> {
  const cpu = process.cpuUsage();
  await new Promise<void>((resolve) => {
    let i = 0;
    const tick = () => (++i < n ? setTimeout(tick, 1) : resolve());
    setTimeout(tick, 1);
  });
  const { total, user } = cpuMicros(cpu);
  return `${(total / n).toFixed(1)} µs (user ${(user / n).toFixed(1)})`;
}

function client(port: number): () => Promise<void> {
  const agent = new http.Agent({ keepAlive: true, scheduling: 'lifo' });
  const payload = JSON.stringify({
    metadata: { name: 'abc', project: 'p' },
    spec: { x: 'y'.repeat(200) },
  });
  return () =>
    new Promise((resolve, reject) => {
      const req = http.request({
        hostname: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path: '/apis/bench',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          JSON.parse(Buffer.concat(chunks).toString());
          resolve();
        });
      });
      req.end(payload);
    });
}

/** `n` requests, four started every 4 ms (1,000 rps) or, with `paced` false, 64 in flight. */
async function requestRun(send: () => Promise<void>, n: number, paced: boolean): Promise<string> {
  const cpu = process.cpuUsage();
  let started = 0;
  let done = 0;
  await new Promise<void>((resolve, reject) => {
    const one = (next: () => void) => {
      started++;
      send().then(() => (++done === n ? resolve() : next()), reject);
    };
    if (paced) {
      const tick = () => {
        for (let i = 0; i < 4 && started < n; i++) one(() => {});
        if (started < n) setTimeout(tick, 4);
      };
      tick();
    } else {
      const fill = () => {
        while (started < n && started - done < 64) one(fill);
      };
      fill();
    }
  });
  const { total, user } = cpuMicros(cpu);
  return `${(total / n / 1000).toFixed(3)} ms (user ${(user / n / 1000).toFixed(3)})`;
}

const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  const send = client(port);
  await requestRun(send, 500, false); // warm: connections open, code compiled
  const rows = [
    ['CPU per event-loop wake (1 ms timer × 5,000)', await wakes(5000)],
    [
      `node:http CPU per request, paced 1,000 rps (× ${requests})`,
      await requestRun(send, requests, true),
    ],
    [`node:http CPU per request, unpaced (× ${requests})`, await requestRun(send, requests, false)],
  ];
  console.log(`load (1 min) ${loadavg()[0]!.toFixed(1)}, node ${process.versions.node}`);
  console.log('| measure | figure |\n|---|---|');
  for (const [what, figure] of rows) console.log(`| ${what} | ${figure} |`);
} finally {
  server.kill();
}
