import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// Issue 22, item 11 (the CLI's half): `validate -` and `plan -` decoded stdin with replacement
// characters and went on, where a file with the same bytes is refused. Both now refuse it with
// the file's message, at the same line and column, naming `<stdin>`.

const workspace = (display: Buffer) =>
  Buffer.concat([
    Buffer.from(
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws\n  project: platform\n  displayName: Caf',
    ),
    display,
    Buffer.from('\n'),
  ]);
/** Latin-1 "é": not UTF-8. */
const LATIN1 = workspace(Buffer.from([0xe9]));
/** A lone continuation byte and a truncated sequence. */
const BROKEN = workspace(Buffer.from([0x80, 0xe2, 0x82]));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-stdin-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The diagnostic lines of an output, with the file's name replaced by `<stdin>`. */
const asStdin = (text: string, file: string) => text.split(file).join('<stdin>');

describe('invalid UTF-8 on stdin is refused as in a file', () => {
  it('validate - gives the file’s message, line and column, naming <stdin>', async () => {
    for (const bytes of [LATIN1, BROKEN]) {
      const file = join(dir, 'ws.yaml');
      writeFileSync(file, bytes);
      const fromFile = await runCli(['validate', file]);
      expect(fromFile.code).toBe(1);
      expect(fromFile.stdout).toMatch(
        /ws\.yaml:6:19: error\[invalid-encoding\]: the file is not valid UTF-8/,
      );
      const fromStdin = await runCli(['validate', '-'], { input: bytes });
      expect(fromStdin.code).toBe(1);
      expect(fromStdin.stdout).toBe(asStdin(fromFile.stdout, file));
    }
  });

  it('plan - refuses it before reaching the platform', async () => {
    const env = { PLATCTL_BASE_URL: 'http://127.0.0.1:9', PLATCTL_API_KEY: 'k-unused-0000' };
    const r = await runCli(['plan', '-', '--state', join(dir, 'state.db')], {
      input: LATIN1,
      env,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '<stdin>:6:19: error[invalid-encoding]: the file is not valid UTF-8 (save the file as UTF-8) here; it was not read',
    );
    expect(r.stderr).toContain('Manifests are invalid; nothing was sent to the platform.');
  });

  it('still reads valid UTF-8 from stdin', async () => {
    const r = await runCli(['validate', '-'], { input: workspace(Buffer.from('é ☕', 'utf8')) });
    expect(r.stdout).toBe('1 manifest valid\n');
    expect(r.code).toBe(0);
  });
});
