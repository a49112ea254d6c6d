import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { createRunPorts } from '../../src/reconcile/default-ports.js';
import { reconcile } from '../../src/reconcile/run.js';
import { INSTANT } from '../e2e/harness.js';
import { runCli } from '../helpers/cli.js';
import { writePlatformManifests, writeSeed } from '../helpers/realistic-platform.js';

const PROJECTS = 6;
let emulator: RunningEmulator;
let dir: string;
const apiKey = randomBytes(16).toString('hex');
const password = `Pw-${randomBytes(8).toString('hex')}`;
const cli = (args: string[]) =>
  runCli(args, {
    // no state store unless a test names one
    env: {
      PLATCTL_BASE_URL: emulator.url,
      PLATCTL_API_KEY: apiKey,
      PLATCTL_STATE_URL: join(dir, 'no-state.db'),
    },
    timeoutMs: 90_000,
  });

/** Builds the platform the way a team did before platctl: applied once, its state thrown away. */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-import-'));
  emulator = await startEmulator({
    port: 0,
    apiKey,
    admin: true,
    seedFile: writeSeed(dir, PROJECTS),
    transitionSeconds: INSTANT,
  });
  const source = join(dir, 'built-by-hand');
  mkdirSync(source);
  writePlatformManifests(source, PROJECTS);
  for (let run = 0; run < 4; run++) {
    const ports = createRunPorts({
      baseUrl: emulator.url,
      apiKey,
      statePath: join(dir, 'builder.db'),
      env: { PLATCTL_DEMO_PASSWORD: password },
      wait: { pollMs: 25, timeoutMs: 20_000 },
      client: { baseDelayMs: 5, maxDelayMs: 50 },
    });
    try {
      const r = await reconcile({ paths: [source], mode: 'apply' }, ports);
      if (r.status === 'in-sync') break;
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(['applied', 'failed']).toContain(r.status);
    } finally {
      await ports.close();
    }
  }
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

// each test runs the CLI several times, a few seconds each on a shared machine
describe('platctl import of a realistic platform', { timeout: 180_000 }, () => {
  it('writes a valid set that a plan right after finds in sync, and found objects are never pruned', async () => {
    const out = join(dir, 'imported');
    const imported = await cli(['import', '--out', out]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/Found, not adopted/);

    // a file per project and one for users, each with the schema line, in a stable order
    const files = readdirSync(out).sort();
    expect(files).toEqual(
      expect.arrayContaining(['users.yaml', 'project-team-01.yaml', 'project-team-06.yaml']),
    );
    expect(files).toHaveLength(PROJECTS + 1); // the seeded default projects hold nothing
    const team1 = readFileSync(join(out, 'project-team-01.yaml'), 'utf8');
    expect(team1.split('\n')[0]).toMatch(
      /^# yaml-language-server: \$schema=.*schemas\/manifest\.schema\.json$/,
    );
    const kinds = parseAllDocuments(team1).map((d) => d.toJS().kind);
    expect(kinds).toEqual([
      'Service',
      'Workspace',
      'Workspace',
      'ComputeInstance',
      'ComputeInstance',
      'ComputeInstance',
      'Cluster',
    ]);
    // only fields a user owns: no status, ids or timestamps; power state kept; ${ escaped
    expect(team1).not.toMatch(/status|createdAt|\bid:|ip_address/);
    expect(team1).toMatch(/platctl\.io\/power-state: "?off"?/);
    expect(team1).toContain('$${HOME}/data');
    // secrets never written: a placeholder per user instead
    const users = readFileSync(join(out, 'users.yaml'), 'utf8');
    expect(users).toContain('env: PLATCTL_PASSWORD_LEAD_TEAM_01_ACME_EXAMPLE');
    expect(users).not.toContain(password);
    expect(users).not.toMatch(/groups:/);

    const validate = await cli(['validate', out]);
    expect(validate.code).toBe(0);

    const state = join(dir, 'fresh.db');
    const plan = await cli(['plan', out, '--state', state, '--detailed-exitcode']);
    expect(plan.stdout).toMatch(/No changes\./);
    expect(plan.code).toBe(0);

    // importing again writes the same bytes
    const again = await cli(['import', '--out', join(dir, 'again')]);
    expect(again.code).toBe(0);
    for (const f of files) {
      expect(readFileSync(join(dir, 'again', f), 'utf8')).toBe(readFileSync(join(out, f), 'utf8'));
    }

    // without --adopt: a document removed from git is not pruned
    unlinkSync(join(out, 'project-team-02.yaml'));
    const pruneFound = await cli(['plan', out, '--state', state, '--prune', '--detailed-exitcode']);
    expect(pruneFound.stdout).not.toMatch(/delete/i);
    expect(pruneFound.code).toBe(0);
  });

  it('with --adopt records the objects as managed, so --prune deletes what leaves git', async () => {
    const out = join(dir, 'adopted');
    const state = join(dir, 'adopted.db');
    const imported = await cli([
      'import',
      '--project',
      'team-03',
      '--out',
      out,
      '--adopt',
      '--state',
      state,
    ]);
    expect(imported.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['project-team-03.yaml', 'users.yaml']);
    const plan = await cli(['plan', out, '--state', state, '--detailed-exitcode']);
    expect(plan.stdout).toMatch(/No changes\./);
    expect(plan.code).toBe(0);

    unlinkSync(join(out, 'project-team-03.yaml'));
    const prune = await cli([
      'plan',
      out,
      '--state',
      state,
      '--prune',
      '--force-deletes',
      '--detailed-exitcode',
    ]);
    expect(prune.code).toBe(2);
    expect(prune.stdout).toMatch(/team-03\/inference\/h100-serve/);
    expect(prune.stdout).toMatch(/delete/i);
  });

  it('takes what the API cannot read from the state platctl applied with, and plans No changes', async () => {
    const out = join(dir, 'with-state');
    const builder = join(dir, 'builder.db');
    const imported = await cli([
      'import',
      '--project',
      'team-01',
      '--out',
      out,
      '--state',
      builder,
    ]);
    expect(imported.code).toBe(0);
    const team1 = readFileSync(join(out, 'project-team-01.yaml'), 'utf8');
    const kinds = parseAllDocuments(team1).map((d) => d.toJS().kind);
    expect(kinds.slice(-4)).toEqual([
      'ClusterControllers',
      'BlueprintVersion',
      'BlueprintPublish',
      'ProjectAssignment',
    ]);
    const users = readFileSync(join(out, 'users.yaml'), 'utf8');
    expect(users).toMatch(/groups:\n\s+- id: grp-platform-engineers/);
    const plan = await cli(['plan', out, '--state', builder, '--detailed-exitcode']);
    expect(plan.stdout).toMatch(/No changes\./);
    expect(plan.code).toBe(0);
  });

  it('refuses kinds the API cannot read and projects it does not know, before writing anything', async () => {
    const out = join(dir, 'refused');
    const kind = await cli(['import', '--kind', 'ProjectAssignment', '--out', out]);
    expect(kind.code).toBe(1);
    expect(kind.stderr).toMatch(
      /ProjectAssignment: the API has no read of it, and there is no state/,
    );
    const project = await cli(['import', '--project', 'nope', '--out', out]);
    expect(project.code).toBe(1);
    expect(project.stderr).toMatch(/project nope is unknown.*visible: .*team-01/);
    expect(() => readdirSync(out)).toThrow();
  });
});
