import { chmodSync, cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** A comment as the fake forge keeps it. */
interface Comment {
  id: number;
  body: string;
}

/**
 * A fake of the two forge APIs the sticky-comment script calls (GitHub issue comments, GitLab
 * merge request notes), on a loopback port, checking the token each sends.
 */
export async function fakeForge() {
  const comments: Comment[] = [];
  const requests: string[] = [];
  let next = 1;
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString();
    });
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push(`${req.method} ${path}`);
      const github = path.startsWith('/gh/');
      const authorized = github
        ? req.headers.authorization === 'Bearer gh-token'
        : req.headers['private-token'] === 'gl-token';
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (!authorized) return send(401, { message: 'bad token' });
      const list = github
        ? /^\/gh\/repos\/acme\/platform\/issues\/7\/comments$/
        : /^\/gl\/projects\/42\/merge_requests\/7\/notes$/;
      const one = github
        ? /^\/gh\/repos\/acme\/platform\/issues\/comments\/(\d+)$/
        : /^\/gl\/projects\/42\/merge_requests\/7\/notes\/(\d+)$/;
      const body = text ? (JSON.parse(text) as { body: string }).body : '';
      if (list.test(path) && req.method === 'GET') return send(200, comments);
      if (list.test(path) && req.method === 'POST') {
        const c = { id: next++, body };
        comments.push(c);
        return send(201, c);
      }
      const m = one.exec(path);
      const found = m && comments.find((c) => c.id === Number(m[1]));
      if (found && req.method === (github ? 'PATCH' : 'PUT')) {
        found.body = body;
        return send(200, found);
      }
      send(404, { message: `no route ${req.method} ${path}` });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    comments,
    requests,
    github: `${url}/gh`,
    gitlab: `${url}/gl`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * A CI workspace: the example manifests checked out as `platform/`, and a `bin/` put first on
 * PATH with `platctl` (this checkout, as the published package would run) and an `npm` that
 * records global installs and answers `npm root --global` with a root holding this package.
 */
export function ciWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), 'platctl-ci-'));
  const work = join(dir, 'work');
  cpSync(join(repo, 'examples/manifests'), join(work, 'platform'), { recursive: true });
  const bin = join(dir, 'bin');
  const root = join(dir, 'global');
  mkdirSync(bin);
  mkdirSync(root);
  symlinkSync(repo, join(root, 'platctl'));
  const script = (name: string, text: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${text}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  script('platctl', `exec node ${PLATCTL_JS} "$@"`);
  const installs = join(dir, 'npm-installs.log');
  script(
    'npm',
    [
      `if [ "$1" = root ] && [ "$2" = --global ]; then echo ${root}; exit 0; fi`,
      'if [ "$1" = install ] && [ "$2" = --global ]; then echo "$3" >> ' +
        installs +
        '; exit 0; fi',
      'echo "fake npm: unexpected $*" >&2; exit 1',
    ].join('\n'),
  );
  return { dir, work, bin, installs };
}
