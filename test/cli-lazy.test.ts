import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { commandNames } from '../src/cli/main.js';
import { startEmulator } from '../src/emulator/index.js';
import { runCli } from './helpers/cli.js';

const tracer = fileURLToPath(new URL('./helpers/trace-modules.mjs', import.meta.url));
const bin = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'platctl-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The project's own modules and packages a CLI run loaded (module URLs, as resolved). */
async function loaded(args: string[]): Promise<{ code: number | null; urls: string[] }> {
  const file = join(dir, `${args.join('-').replace(/\W+/g, '_')}.txt`);
  const r = await runCli(args, {
    env: { NODE_OPTIONS: `--import=${tracer}`, PLATCTL_TRACE_MODULES: file },
  });
  return { code: r.code, urls: readFileSync(file, 'utf8').split('\n').filter(Boolean) };
}

describe('each command loads only what it runs', () => {
  it('validate reads manifests without loading the controller, emulator, state stores or client', async () => {
    const { code, urls } = await loaded(['validate', 'examples/manifests/']);
    expect(code).toBe(0);
    expect(urls.some((u) => u.includes('/src/manifests/'))).toBe(true);
    for (const part of ['/src/controller/', '/src/emulator/', '/src/state/', '/src/providers/']) {
      expect(urls.filter((u) => u.includes(part))).toEqual([]);
    }
    for (const pkg of [
      '/node_modules/pg/',
      '/node_modules/better-sqlite3/',
      '/node_modules/prom-client/',
    ]) {
      expect(urls.filter((u) => u.includes(pkg))).toEqual([]);
    }
  });

  it('a clean validate loads no YAML node-tree library (positions are found only for a diagnostic)', async () => {
    const file = join(dir, 'clean.yaml');
    writeFileSync(
      file,
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws-1\n  project: p\n',
    );
    const { code, urls } = await loaded(['validate', file]);
    expect(code).toBe(0);
    // the plain path reads it: neither js-yaml nor the yaml library is loaded
    expect(urls.filter((u) => u.includes('/node_modules/js-yaml/'))).toEqual([]);
    expect(urls.filter((u) => u.includes('/node_modules/yaml/'))).toEqual([]);
    // its request was checked by the build's standalone code: ajv's compiler was never loaded
    expect(
      urls.filter((u) => /\/node_modules\/ajv\/dist\/(core|2020|compile\/index)\./.test(u)),
    ).toEqual([]);
  });

  it('a validate without a Policy loads no CEL (its compiler is only for policy rules)', async () => {
    const file = join(dir, 'no-policy.yaml');
    writeFileSync(
      file,
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws-1\n  project: p\n',
    );
    const { code, urls } = await loaded(['validate', file]);
    expect(code).toBe(0);
    expect(urls.filter((u) => u.includes('/node_modules/@bufbuild/'))).toEqual([]);
  });

  it('a validate with a Policy loads CEL and checks its rules', async () => {
    const file = join(dir, 'policy.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: platctl.io/v1alpha1',
        'kind: Policy',
        'metadata:',
        '  name: p',
        'spec:',
        '  rules:',
        '    - {name: r, effect: deny, expression: "manifest.kind ="}',
        '',
      ].join('\n'),
    );
    const { code, urls } = await loaded(['validate', file]);
    expect(code).not.toBe(0);
    expect(urls.some((u) => u.includes('/node_modules/@bufbuild/cel/'))).toBe(true);
  });

  it('a controller on SQLite with a watched directory, through its first run, loads no PostgreSQL, git, notifications, shards or emulator code', async () => {
    const apiKey = 'lazy-test-key-4c1d9e';
    const emulator = await startEmulator({ port: 0, apiKey });
    const manifests = join(dir, 'manifests');
    mkdirSync(manifests, { recursive: true });
    writeFileSync(
      join(manifests, 'ws.yaml'),
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws-lazy\n  project: default\n',
    );
    const trace = join(dir, 'controller.txt');
    try {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          bin,
          'controller',
          '--watch',
          manifests,
          '--state',
          join(dir, 'state.db'),
          '--listen',
          '127.0.0.1:0',
          '--interval',
          '1h',
        ],
        {
          env: {
            ...process.env,
            NODE_OPTIONS: `--import=${tracer}`,
            PLATCTL_TRACE_MODULES: trace,
            PLATCTL_BASE_URL: emulator.url,
            PLATCTL_API_KEY: apiKey,
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      const exited = new Promise<number | null>((r) => child.on('close', r));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no run ended: ${stderr}`)), 30_000);
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes('"run-end"')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      expect(stderr).toContain('"result":"succeeded"');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await emulator.close();
    }
    const urls = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    expect(urls.some((u) => u.includes('/src/controller/loop/loop.'))).toBe(true);
    // the state URL's parser (pg/target) is pure and tells a SQLite path from a database URL
    expect(urls.filter((u) => u.includes('/src/state/pg/') && !u.includes('/pg/target.'))).toEqual(
      [],
    );
    for (const part of [
      '/src/controller/leadership/shards/',
      '/src/controller/notify/',
      '/src/controller/sources/git-source.',
      '/src/emulator/',
      '/node_modules/pg/',
      '/node_modules/simple-git/',
      '/node_modules/swagger-ui-dist/',
    ]) {
      expect(urls.filter((u) => u.includes(part))).toEqual([]);
    }
  });

  it("an emulator's start and first answer load no YAML library and no ajv compiler (the build parsed its document and made its checks)", async () => {
    const trace = join(dir, 'emulator.txt');
    const entry = new URL('../dist/src/emulator/index.js', import.meta.url).href;
    const script = `
      const { startEmulator } = await import(${JSON.stringify(entry)});
      const emu = await startEmulator({ apiKey: 'lazy-test-key-4c1d9e', dialect: 'spec' });
      const res = await fetch(emu.url + '/auth/v1/projects/?limit=5', {
        headers: { 'X-SERVICE-API-KEYID': 'lazy-test-key-4c1d9e' },
      });
      await emu.close();
      if (res.status !== 200) throw new Error('status ' + res.status);`;
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, NODE_OPTIONS: `--import=${tracer}`, PLATCTL_TRACE_MODULES: trace },
        stdio: 'inherit',
      });
      child.on('close', resolve);
    });
    expect(code).toBe(0);
    const urls = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    expect(urls.some((u) => u.includes('/dist/src/emulator/http/server.'))).toBe(true);
    expect(urls.filter((u) => u.includes('/node_modules/yaml/'))).toEqual([]);
    // its request was checked by the build's standalone code: ajv's compiler was never loaded
    expect(
      urls.filter((u) => /\/node_modules\/ajv\/dist\/(core|2020|compile\/index)\./.test(u)),
    ).toEqual([]);
  });

  it('--version and --help load no command (issue 24, item 2: they loaded all ten)', async () => {
    for (const args of [['--version'], ['--help'], []]) {
      const { urls } = await loaded(args);
      const commands = urls.filter((u) => /\/src\/cli\/commands\/(?!index\.)/.test(u));
      expect(commands, args.join(' ')).toEqual([]);
      for (const part of ['/src/reconcile/', '/src/providers/', '/src/manifests/', '/src/state/']) {
        expect(urls.filter((u) => u.includes(part))).toEqual([]);
      }
    }
  });

  it("each command's --help loads only its flags: no engine, client, store, emulator or controller", async () => {
    const heavy = /\/src\/(reconcile|providers|state|emulator|controller|manifests|import|usage)\//;
    for (const name of commandNames()) {
      const { code, urls } = await loaded([name, '--help']);
      expect(code, name).toBe(0);
      // the state URL's parser (pg/target) is pure: the controller's path flags tell a file from a URL
      expect(
        urls.filter((u) => heavy.test(u) && !u.includes('/src/state/pg/target.')),
        `${name} --help`,
      ).toEqual([]);
    }
    // one process per command: at a load of 17 their starts took over the default 30 s together
  }, 120_000);

  it('help still lists every command', async () => {
    const r = await runCli(['--help']);
    for (const name of ['validate', 'plan', 'apply', 'controller', 'ctl', 'emulator', 'demo']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
    for (const name of ['import', 'usage', 'state'])
      expect(r.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });
});
