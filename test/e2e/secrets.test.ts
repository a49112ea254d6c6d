import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { EXAMPLES, INSTANT } from './harness.js';

const apiKey = `key-${randomBytes(16).toString('hex')}`;
const password = `Pw-${randomBytes(8).toString('hex')}`;
let emulator: RunningEmulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: INSTANT });
  dir = mkdtempSync(join(tmpdir(), 'platctl-secrets-'));
  env = {
    PLATCTL_BASE_URL: emulator.url,
    PLATCTL_API_KEY: apiKey,
    PLATCTL_DEMO_PASSWORD: password,
  };
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The examples plus one workspace whose display name is `${LABEL}`-style text. */
function manifests(name: string, displayName: string, extra = ''): string {
  const root = join(dir, name);
  cpSync(EXAMPLES, root, { recursive: true });
  writeFileSync(
    join(root, '90-labelled.yaml'),
    `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: labelled\n  project: platform\n  displayName: "${displayName}"\n${extra}`,
  );
  return root;
}

const state = () => join(dir, 'state.db');

/** `${NAME}` as a manifest spells a variable. */
const ref = (name: string) => `\${${name}}`;

/** Every place the key could land: the outputs given, the state DB (and its WAL), the journal. */
async function everywhere(outputs: string[]): Promise<string> {
  const db = [state(), `${state()}-wal`].filter(existsSync).map((f) => readFileSync(f, 'latin1'));
  const journal = await (
    await emulatorControl(emulator.url, 'GET', '/_emulator/journal?since=0')
  ).text();
  return [...outputs, ...db, journal].join('\n');
}

async function platformWrites(): Promise<number> {
  const body = (await (
    await emulatorControl(emulator.url, 'GET', '/_emulator/journal?since=0')
  ).json()) as {
    entries: { method: string }[];
  };
  return body.entries.filter((e) => e.method !== 'GET').length;
}

describe('the API key never reaches a manifest, a plan, the platform or the state', () => {
  it('refuses the key variable by name, a variable holding the key, its halves joined, and passwordFrom.env of it', async () => {
    const attempts = [
      // the reproduction: the key by its own name
      { paths: manifests('by-name', ref('PLATCTL_API_KEY')), args: [], vars: {} },
      // the key's value under another name, through the environment and through --var
      {
        paths: manifests('by-env', ref('LABEL')),
        args: ['-o', 'markdown'],
        vars: { PLATCTL_VAR_LABEL: apiKey },
      },
      {
        paths: manifests('by-flag', ref('LABEL')),
        args: ['-o', 'json', '--var', `LABEL=${apiKey}`],
        vars: {},
      },
      // the key's two halves in two variables, joined by the manifest (issue 22, item 9)
      {
        paths: manifests('by-halves', `${ref('A')}${ref('B')}`),
        args: ['--var', `A=${apiKey.slice(0, 10)}`, '--var', `B=${apiKey.slice(10)}`],
        vars: {},
      },
      // a password read from the key's variable
      {
        paths: manifests('by-password', 'fine'),
        args: [],
        vars: {},
        user: true,
      },
    ];
    writeFileSync(
      join(attempts[4]!.paths, '91-user.yaml'),
      'apiVersion: platctl.io/v1alpha1\nkind: User\nmetadata:\n  name: eve@acme.example\nspec:\n  first_name: Eve\n  last_name: Ops\n  user_type: CONSOLE\n  passwordFrom: {env: PLATCTL_API_KEY}\n',
    );
    const outputs: string[] = [];
    for (const a of attempts) {
      const r = await runCli(['plan', a.paths, '--state', state(), ...a.args], {
        env: { ...env, ...a.vars },
      });
      outputs.push(r.stdout, r.stderr);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout + r.stderr).toMatch(/\.yaml:\d+:\d+: error\[refused-variable\]/);
    }
    const apply = await runCli(
      ['apply', attempts[0]!.paths, '--state', state(), '--auto-approve'],
      { env },
    );
    outputs.push(apply.stdout, apply.stderr);
    expect(apply.code).toBe(1);
    expect(await platformWrites()).toBe(0);
    // neither half of the key is printed either
    expect(outputs.join('\n')).not.toContain(apiKey.slice(10));
    expect(await everywhere(outputs)).not.toContain(apiKey);
  }, 120_000);

  it('applies the examples leaving the key in no plan format, state DB or journal', async () => {
    const paths = manifests('clean', ref('LABEL'));
    const vars = { ...env, PLATCTL_VAR_LABEL: 'Labelled' };
    const outputs: string[] = [];
    for (const format of ['text', 'markdown', 'json']) {
      const plan = await runCli(['plan', paths, '--state', state(), '-o', format], { env: vars });
      expect(plan.code, plan.stderr).toBe(0);
      outputs.push(plan.stdout, plan.stderr);
    }
    expect(outputs[4]).toContain('"displayName": "Labelled"');
    const apply = await runCli(['apply', paths, '--state', state(), '--auto-approve'], {
      env: vars,
    });
    expect(apply.code, apply.stderr).toBe(0);
    outputs.push(apply.stdout, apply.stderr);
    const all = await everywhere(outputs);
    expect(all).not.toContain(apiKey);
    expect(all).not.toContain(password);
    expect(await platformWrites()).toBeGreaterThan(10);
  }, 120_000);
});
