// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the input holds a literal ${VAR}
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

describe('platctl validate', () => {
  it('exits 0 on the examples', async () => {
    const r = await runCli(['validate', 'examples/manifests']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('22 manifests valid\n');
    expect(r.code).toBe(0);
  });

  it('exits 1 on errors and prints file:line:col: error[code]: path: message', async () => {
    const r = await runCli(['validate', `${fixtures}plain-password`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'users.yaml:9:3: error[plain-password]: spec.password: a plain-text password is not allowed',
    );
    expect(r.stdout).not.toContain('correct-horse');
  });

  it('passes warnings unless --strict', async () => {
    const dir = `${fixtures}undeclared-references`;
    expect((await runCli(['validate', dir])).code).toBe(0);
    expect((await runCli(['validate', '--strict', dir])).code).toBe(1);
  });

  it('reads stdin, prints JSON with --output json, and takes --var-file', async () => {
    const input =
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ${NAME}\n  project: platform\n';
    const bad = await runCli(['validate', '-', '--output', 'json'], {
      input,
      env: { NAME: undefined },
    });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject([
      { severity: 'error', code: 'undefined-variable', file: '<stdin>', line: 4, col: 9 },
    ]);
    const good = await runCli(
      ['validate', '-', '--output', 'json', '--var-file', `${fixtures}../vars/names.env`],
      { input },
    );
    expect(good.stdout).toBe('[]\n');
    expect(good.code).toBe(0);
  });

  it('rejects an unknown output format as a usage error', async () => {
    expect((await runCli(['validate', '-o', 'xml', 'examples/manifests'])).code).toBe(2);
  });
});
