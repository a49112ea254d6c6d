import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORTABLE_KINDS } from '../../src/import/read.js';
import { runCli } from '../helpers/cli.js';
import { everyHelp, helpFlags } from './helps.js';

// Issue 24, item 6: one flag, one meaning, everywhere.

const dir = mkdtempSync(join(tmpdir(), 'platctl-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const helps = await everyHelp();
const helpOf = (path: string) => helps.find((h) => h.path === path)!.help;

describe('the CLI speaks one flag vocabulary', () => {
  it('validate takes --var, as its own error about an undefined variable says', async () => {
    const file = join(dir, 'ws.yaml');
    writeFileSync(
      file,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a manifest's variable reference
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws-${SUFFIX}\n  project: p\n',
    );
    const missing = await runCli(['validate', file]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('pass --var SUFFIX=...');
    const given = await runCli(['validate', '--var', 'SUFFIX=1', file]);
    expect(given.stderr).toBe('');
    expect(given.stdout).toBe('1 manifest valid\n');
    expect(given.code).toBe(0);
    expect(helpFlags(helpOf('validate'))).toEqual(expect.arrayContaining(['--var', '--var-file']));
  });

  it('every -o names its formats from one vocabulary (text, json, markdown, csv); old spellings still work, unlisted', async () => {
    const vocabulary = new Set(['text', 'json', 'markdown', 'csv']);
    const withOutput = helps.filter((h) => helpFlags(h.help).includes('--output'));
    expect(withOutput.map((h) => h.path).sort()).toEqual(
      [
        'apply',
        'ctl diff',
        'ctl status',
        'doctor',
        'plan',
        'state list',
        'usage',
        'validate',
      ].sort(),
    );
    for (const h of withOutput) {
      const option = h.command.options.find((o) => o.long === '--output')!;
      expect(option.short, h.path).toBe('-o');
      const formats = /\(one of ([^)]*)\)/.exec(option.description)?.[1]?.split(/, | or /);
      expect(formats, `${h.path}: ${option.description}`).toBeDefined();
      for (const f of formats!) expect(vocabulary, `${h.path} -o ${f}`).toContain(f);
      expect(formats).toContain('text');
      expect(option.defaultValue, h.path).toBe('text');
    }
    expect(helpOf('validate')).not.toMatch(/human/);
    expect(helpOf('usage')).not.toMatch(/\btable\b.*json|"table"/);
    const file = join(dir, 'ok.yaml');
    writeFileSync(
      file,
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ok\n  project: p\n',
    );
    for (const format of ['text', 'human']) {
      const r = await runCli(['validate', '-o', format, file]);
      expect(r.stdout, format).toBe('1 manifest valid\n');
    }
    const bad = await runCli(['validate', '-o', 'yaml', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('-o text or json');
  });

  it('--profile is the config profile everywhere; usage names a compute profile --compute-profile', async () => {
    for (const h of helps) {
      const line = h.help.split('\n').find((l) => /^\s+--profile\b/.test(l));
      if (line) expect(line, h.path).toMatch(/profile of the config file/);
    }
    expect(helpFlags(helpOf('usage'))).toEqual(
      expect.arrayContaining(['--profile', '--compute-profile', '--by-compute-profile']),
    );
    expect(helpFlags(helpOf('usage'))).not.toContain('--config-profile');
    // the old spelling of a compute profile fails with the way out, never silently
    const r = await runCli(['usage', '--profile', 'bmaas-h100'], {
      env: {
        PLATCTL_BASE_URL: 'http://127.0.0.1:9',
        PLATCTL_API_KEY: 'k-unused',
        XDG_CONFIG_HOME: dir,
      },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--profile names a profile of the config file');
    expect(r.stderr).toContain('--compute-profile bmaas-h100');
  });

  it('plan --help lists no flag that only apply acts on', () => {
    const plan = helpOf('plan');
    expect(helpFlags(plan)).not.toEqual(
      expect.arrayContaining(['--auto-approve', '--lock-timeout']),
    );
    // every flag plan lists is one plan uses, described as plan uses it
    expect(plan).not.toMatch(/delete resources|actions and requests|action's start and finish/);
  });

  it('the controller takes --var and --var-file like plan and apply', () => {
    expect(helpFlags(helpOf('controller'))).toEqual(
      expect.arrayContaining(['--var', '--var-file']),
    );
  });

  it('import --help names the kinds the importer reads', () => {
    expect(helpOf('import').replace(/\s+/g, ' ')).toContain(
      `default ${IMPORTABLE_KINDS.join(', ')})`,
    );
  });

  it('ctl names the control token file as the controller does', () => {
    expect(helpFlags(helpOf('ctl'))).toContain('--control-token-file');
    expect(helpFlags(helpOf('ctl'))).not.toContain('--token-file');
  });
});
