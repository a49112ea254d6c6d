import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { printable, printableJson } from '../../src/core/terminal-text.js';
import { formatDiagnostics } from '../../src/manifests/index.js';
import { renderPlanJson } from '../../src/reconcile/render/json.js';
import { renderPlanMarkdown } from '../../src/reconcile/render/markdown.js';
import { renderOutcomesText, renderPlanText } from '../../src/reconcile/render/text.js';
import { renderCsv, renderTable, renderTerminalChart } from '../../src/usage/render.js';
import type { UsageReport } from '../../src/usage/report.js';
import { runCli } from '../helpers/cli.js';
import { act, planOf } from '../reconcile/helpers.js';

// Issue 22, item 10: text from git, the platform or a manifest reached the terminal raw, so a
// commit message or a field name could retitle the window (OSC), clear the screen (CSI) or fake
// colours. Every such text is now printed with its control characters escaped.

/** An OSC title change, a bell, a screen clear, a fake red, a C1 CSI and a right-to-left override. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u001b[31mFAKE\u009b1m\u202e';
/** What no output may hold raw. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('printable', () => {
  it('escapes C0, DEL, C1 and bidirectional controls, and leaves plain text as it is', () => {
    expect(printable(HOSTILE)).toBe('\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mFAKE\\x9b1m\\u202e');
    expect(printable('line\r\nnext\tcol\u007f')).toBe('line\\r\\nnext\\tcol\\x7f');
    expect(printable('line\nnext\tcol\r', { multiline: true })).toBe('line\nnext\tcol\\r');
    const plain = 'Workspace/p/ws: platform has 8, git says 1 — café 🚀';
    expect(printable(plain)).toBe(plain);
  });

  it('makes JSON printable without changing what it means', () => {
    const doc = { message: HOSTILE, nested: ['\u0085', '\u2028'] };
    const text = printableJson(JSON.stringify(doc));
    expect(text).not.toMatch(RAW);
    expect(text).not.toContain('\u2028');
    expect(JSON.parse(text)).toEqual(doc);
  });
});

describe('plan, outcomes and diagnostics escape what they quote', () => {
  const planned = planOf([
    act('Workspace/p/ws#update', [], 'update', {
      reason: { code: 'drift', message: `platform has ${HOSTILE}` },
      changes: [
        { op: 'replace', path: '/metadata/description', before: HOSTILE, after: 'x' },
        { op: 'add', path: '/spec', after: { [`key${HOSTILE}`]: 'v' } },
      ],
    }),
  ]);
  const hostilePlan = {
    ...planned,
    diagnostics: [
      {
        severity: 'warning' as const,
        key: 'Workspace/p/ws',
        message: `the platform said ${HOSTILE}`,
      },
    ],
  };

  it('prints text, markdown and JSON plans with no raw control character', () => {
    const text = renderPlanText(hostilePlan);
    expect(text).not.toMatch(RAW);
    expect(text).toContain('platform has \\x1b]0;pwned\\x07');
    expect(renderPlanMarkdown(hostilePlan)).not.toMatch(RAW);
    const json = renderPlanJson(hostilePlan);
    expect(json).not.toMatch(RAW);
    expect(JSON.parse(json).diagnostics[0].message).toBe(`the platform said ${HOSTILE}`);
  });

  it('prints an apply’s failures escaped', () => {
    const text = renderOutcomesText({
      'Workspace/p/ws#update': {
        status: 'failed',
        elapsedMs: 1,
        error: `409: ${HOSTILE}`,
        code: 'conflict',
      },
    });
    expect(text).not.toMatch(RAW);
    expect(text).toContain('409: \\x1b]0;pwned');
  });

  it('formats diagnostics escaped, for people and as JSON', () => {
    const diags = [
      {
        severity: 'error' as const,
        code: 'unknown-field' as const,
        message: `unknown field "${HOSTILE}"`,
        file: `dir/${HOSTILE}.yaml`,
        line: 1,
        col: 1,
        path: `metadata["${HOSTILE}"]`,
      },
    ];
    expect(formatDiagnostics(diags, 'human')).not.toMatch(RAW);
    expect(formatDiagnostics(diags, 'json')).not.toMatch(RAW);
  });
});

describe('log lines', () => {
  it('carry a commit message as escaped JSON, read back unchanged', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _e, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    createLogger({ destination }).info(
      { event: 'fetched', message: HOSTILE },
      `fetched ${HOSTILE}`,
    );
    expect(lines.join('')).not.toMatch(RAW);
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: HOSTILE, msg: `fetched ${HOSTILE}` });
  });
});

describe('usage escapes platform names', () => {
  const report: UsageReport = {
    from: '2026-01-01',
    to: '2026-02-01',
    currency: 'USD',
    rows: [
      {
        project: `ml${HOSTILE}`,
        instance: `box${HOSTILE}`,
        profile: `bmaas${HOSTILE}`,
        hours: 2,
        gpuHours: 16,
      },
    ],
    total: { hours: 2, gpuHours: 16 },
  };

  it('in the table, the chart and the CSV', () => {
    expect(renderTable(report)).not.toMatch(RAW);
    expect(renderTerminalChart(report)).not.toMatch(RAW);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(renderCsv(report)).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
  });
});

describe('the CLI prints no raw control character from its input', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'platctl-escapes-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('validate echoes an unknown field name and an unknown kind escaped, in both formats', async () => {
    // YAML's own escapes: "\e" is ESC, "\a" is BEL, "\x9b" is the C1 CSI
    writeFileSync(
      join(dir, 'hostile.yaml'),
      [
        'apiVersion: paas.envmgmt.io/v1',
        'kind: Workspace',
        'metadata:',
        '  name: ws',
        '  project: platform',
        '  "evil\\e]0;pwned\\a\\e[2J\\x9b31m": 1',
        '---',
        'apiVersion: paas.envmgmt.io/v1',
        'kind: "Fake\\e[31mKind\\a"',
        'metadata:',
        '  name: other',
        '',
      ].join('\n'),
    );
    const human = await runCli(['validate', dir]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('evil\\x1b]0;pwned\\x07');
    expect(human.stdout).toContain('Fake\\x1b[31mKind');
    expect(human.stdout + human.stderr).not.toMatch(RAW);
    const json = await runCli(['validate', dir, '-o', 'json']);
    expect(json.stdout + json.stderr).not.toMatch(RAW);
  });

  it('an error quoting the command line is printed escaped', async () => {
    const r = await runCli(['plan', dir, '--var', `x${HOSTILE}`], {
      env: { PLATCTL_BASE_URL: 'http://127.0.0.1:9', PLATCTL_API_KEY: 'k-unused-0000' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--var expects KEY=VALUE');
    expect(r.stdout + r.stderr).not.toMatch(RAW);
  });
});
