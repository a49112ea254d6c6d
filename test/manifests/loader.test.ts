// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAndValidate } from '../../src/manifests/index.js';

const workspace = (name: string, project = 'platform', extra = '') =>
  `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ${name}\n  project: ${project}\n${extra}`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-loader-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (rel: string, text: string) => {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), text);
};
const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code);

describe('reading files', () => {
  it('walks directories recursively in sorted order, reads multi-document files, skips empty documents and other files', async () => {
    write('b.yaml', `${workspace('b1')}---\n---\n# only a comment\n---\n${workspace('b2')}`);
    write('a/z.yml', workspace('az'));
    write('a.yaml', workspace('a'));
    write('notes.txt', 'not yaml: [');
    write('.hidden/x.yaml', workspace('hidden'));
    const r = await loadAndValidate({ paths: [dir] });
    expect(r.diagnostics).toEqual([]);
    expect(r.manifests.map((m) => m.manifest.metadata.name)).toEqual(['az', 'a', 'b1', 'b2']);
    expect(r.manifests[3]!.source).toEqual({ file: `${dir}/b.yaml`, line: 10, col: 1 });
  });

  it('reads stdin for -', async () => {
    const r = await loadAndValidate({ paths: ['-'], stdin: workspace('from-stdin') });
    expect(r.manifests.map((m) => m.key)).toEqual(['Workspace/platform/from-stdin']);
    expect(r.manifests[0]!.source.file).toBe('<stdin>');
  });

  it('reports a missing path', async () => {
    const r = await loadAndValidate({ paths: [join(dir, 'nope')] });
    expect(codes(r)).toEqual(['path-not-found']);
  });

  it('warns when a directory holds no manifest', async () => {
    const r = await loadAndValidate({ paths: [dir] });
    expect(codes(r)).toEqual(['no-manifests']);
  });

  it('refuses a symlink that leaves the directory but follows one that stays inside', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'platctl-outside-'));
    try {
      writeFileSync(join(outside, 'secret.yaml'), workspace('outside'));
      write('inner/in.yaml', workspace('inside'));
      symlinkSync(join(outside, 'secret.yaml'), join(dir, 'escape.yaml'));
      symlinkSync(join(dir, 'inner'), join(dir, 'link-inner'));
      const r = await loadAndValidate({ paths: [dir] });
      expect(r.diagnostics.map((d) => [d.code, d.file])).toEqual([
        ['symlink-escape', `${dir}/escape.yaml`],
      ]);
      expect(r.manifests).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses files over the size limit', async () => {
    write('big.yaml', `${workspace('big')}description: ${'x'.repeat(2000)}\n`);
    const r = await loadAndValidate({ paths: [dir], limits: { maxFileBytes: 1000 } });
    expect(codes(r)).toContain('file-too-large');
    const s = await loadAndValidate({
      paths: ['-'],
      stdin: 'x'.repeat(2000),
      limits: { maxFileBytes: 1000 },
    });
    expect(codes(s)).toEqual(['file-too-large']);
  });

  it('refuses alias expansion beyond the limit with the document position', async () => {
    const bomb = `${workspace('w')}---\na: &a [1, 2]\nb: [*a, *a, *a, *a, *a, *a]\n`;
    write('bomb.yaml', bomb);
    const r = await loadAndValidate({ paths: [dir], limits: { maxAliasCount: 3 } });
    expect(r.diagnostics).toMatchObject([{ code: 'yaml-alias-limit', line: 7, col: 1 }]);
    const ok = await loadAndValidate({ paths: [dir], limits: { maxAliasCount: 100 } });
    expect(codes(ok)).not.toContain('yaml-alias-limit');
  });
});

describe('hostile nesting', () => {
  it('refuses deep nesting before the YAML composer can exhaust the stack (this sequence once crashed the process)', async () => {
    const inputs = [
      '['.repeat(20_000),
      `${'- '.repeat(20_000)}x`,
      '{'.repeat(20_000),
      `a:\n${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')}`,
    ];
    for (const text of inputs) {
      const r = await loadAndValidate({ paths: ['-'], stdin: text });
      expect(r.diagnostics).toMatchObject([{ code: 'yaml-too-deep', file: '<stdin>' }]);
    }
  });

  it('caps the YAML errors of one file', async () => {
    const r = await loadAndValidate({ paths: ['-'], stdin: 'a: [\n'.repeat(60) });
    expect(r.diagnostics).toHaveLength(21);
    expect(r.diagnostics[0]!.message).toMatch(/^\d+ more YAML problems in this file not shown$/);
  });
});

describe('positions', () => {
  it('points schema errors at the offending value, unknown fields at their key, missing ones at the parent key', async () => {
    write(
      'ci.yaml',
      [
        'apiVersion: paas.envmgmt.io/v1',
        'kind: ComputeInstance',
        'metadata:',
        '  name: bm',
        '  project: platform',
        '  workspace: ws',
        'spec:',
        '  computeType: baremetal',
        '  computeProfile: {name: bmaas-h100, colour: red}',
        '  variables:',
        '    - name: Contract Term',
        '      value: "7"',
      ].join('\n'),
    );
    const r = await loadAndValidate({ paths: [dir] });
    const at = (code: string) => r.diagnostics.find((d) => d.code === code);
    expect(at('invalid-value')).toMatchObject({
      line: 12,
      col: 14,
      path: 'spec.variables[0].value',
    });
    expect(at('invalid-value')!.message).toBe('Contract Term must be one of 1, 6, 12, 24 (months)');
    expect(at('unknown-field')).toMatchObject({
      line: 9,
      col: 38,
      path: 'spec.computeProfile.colour',
    });
    expect(r.manifests).toEqual([]);
  });

  it('counts every newline, even where the yaml library skips one (found by the property test)', async () => {
    const r = await loadAndValidate({ paths: ['-'], stdin: '{${V}---\na', env: { V: 'x' } });
    expect(r.diagnostics.at(-1)).toMatchObject({ line: 2, col: 2 });
  });

  it('counts lines inside multi-line flow collections and in CRLF files', async () => {
    const text =
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata: {name: ws,\n  project: platform, extra: 1}\n';
    for (const t of [text, text.replaceAll('\n', '\r\n')]) {
      const r = await loadAndValidate({ paths: ['-'], stdin: t });
      expect(r.diagnostics).toMatchObject([{ code: 'unknown-field', line: 4, col: 22 }]);
    }
  });

  it('gives every loaded manifest a positionOf that falls back to the nearest ancestor', async () => {
    write('w.yaml', `# comment\n${workspace('w', 'platform', '  description: hello\n')}`);
    const [m] = (await loadAndValidate({ paths: [dir] })).manifests;
    expect(m!.positionOf(['metadata', 'description'])).toMatchObject({ line: 7, col: 16 });
    expect(m!.positionOf(['metadata', 'nope', 3])).toMatchObject({ line: 5, col: 3 });
    expect(m!.positionOf([])).toMatchObject({ line: 2, col: 1 });
  });
});

describe('${VAR} substitution', () => {
  const svc = (name: string) => `${workspace(name)}  description: "$\${LITERAL} \${DESC}"\n`;

  it('substitutes from PLATCTL_VAR_ in the environment and keeps $${VAR} as a literal', async () => {
    write('w.yaml', svc('ws-${STAGE}'));
    const r = await loadAndValidate({
      paths: [dir],
      env: { PLATCTL_VAR_STAGE: 'prod', PLATCTL_VAR_DESC: 'main' },
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.manifests[0]!.manifest.metadata).toMatchObject({
      name: 'ws-prod',
      description: '${LITERAL} main',
    });
  });

  it('never reads the rest of the environment', async () => {
    write('w.yaml', svc('ws-${STAGE}'));
    const r = await loadAndValidate({ paths: [dir], env: { STAGE: 'prod', DESC: 'main' } });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['undefined-variable', 'undefined-variable']);
    expect(r.diagnostics[0]!.message).toContain('PLATCTL_VAR_STAGE');
  });

  it('refuses credentials by name from any source, and values holding the API key', async () => {
    write('w.yaml', svc('ws-${PLATCTL_GIT_TOKEN}'));
    const byName = await loadAndValidate({
      paths: [dir],
      vars: { PLATCTL_GIT_TOKEN: 'tok', DESC: 'x' },
    });
    expect(byName.diagnostics).toMatchObject([{ code: 'refused-variable', line: 4, col: 9 }]);
    write('w.yaml', svc('ws-a'));
    const byValue = await loadAndValidate({
      paths: [dir],
      env: { PLATCTL_VAR_DESC: 'prefix-the-api-key-suffix' },
      refusedValues: ['the-api-key'],
    });
    expect(byValue.diagnostics).toMatchObject([{ code: 'refused-variable', line: 6, col: 16 }]);
    expect(JSON.stringify(byValue)).not.toContain('the-api-key');
    expect(byValue.manifests).toEqual([]);
  });

  it('reports an undefined variable at its position and returns nothing', async () => {
    write('w.yaml', svc('ws'));
    const r = await loadAndValidate({ paths: [dir], env: {} });
    expect(r.diagnostics).toMatchObject([{ code: 'undefined-variable', line: 6, col: 16 }]);
    expect(r.diagnostics[0]!.message).toContain('${DESC}');
    expect(r.manifests).toEqual([]);
  });

  it('reads var files (YAML map and KEY=VALUE); vars beat later files beat earlier files beat env', async () => {
    write('w.yaml', svc('ws-${STAGE}'));
    const yamlVars = join(dir, 'vars.yml.txt');
    const envVars = join(dir, 'vars.env');
    writeFileSync(yamlVars, 'STAGE: from-yaml\nDESC: yaml\n');
    writeFileSync(envVars, '# comment\nexport STAGE="from-env-file"\n');
    const load = (vars?: Record<string, string>) =>
      loadAndValidate({
        paths: [join(dir, 'w.yaml')],
        varFiles: [yamlVars, envVars],
        env: { PLATCTL_VAR_STAGE: 'from-env', PLATCTL_VAR_DESC: 'env' },
        vars,
      });
    expect((await load()).manifests[0]!.manifest.metadata).toMatchObject({
      name: 'ws-from-env-file',
      description: '${LITERAL} yaml',
    });
    expect((await load({ STAGE: 'cli' })).manifests[0]!.manifest.metadata.name).toBe('ws-cli');
  });

  it('re-types a plain scalar the way YAML would, but not a quoted one', async () => {
    const cluster = (size: string) =>
      `apiVersion: infra.k8smgmt.io/v3\nkind: Cluster\nmetadata: {name: c, project: platform}\nspec:\n  type: Gke\n  cloudCredentials: gcp-credentials\n  blueprint: {name: ml-stack, version: v1.0.0}\n  config:\n    project: p\n    location: {type: zonal, zone: z}\n    nodePools:\n      - name: p\n        size: ${size}\n`;
    write('c.yaml', cluster('${N}'));
    const r = await loadAndValidate({ paths: [dir], env: { PLATCTL_VAR_N: '3' } });
    expect(r.diagnostics).toEqual([]);
    write('c.yaml', cluster('"${N}"'));
    const q = await loadAndValidate({ paths: [dir], env: { PLATCTL_VAR_N: '3' } });
    expect(q.diagnostics.map((d) => d.message)).toEqual(['must be an integer, not a string']);
  });

  it('reports an unreadable or malformed var file', async () => {
    write('w.yaml', workspace('w'));
    writeFileSync(join(dir, 'bad.vars'), 'this is not a var file\n');
    const r = await loadAndValidate({
      paths: [join(dir, 'w.yaml')],
      varFiles: [join(dir, 'bad.vars'), join(dir, 'gone')],
    });
    expect(codes(r)).toEqual(['var-file', 'var-file']);
  });
});

describe('dependsOn', () => {
  it('handles a 5,000-long chain without overflowing, and finds the cycle that closes it', async () => {
    const n = 5000;
    const docs = Array.from({ length: n }, (_, i) =>
      workspace(
        `w${i}`,
        'platform',
        `  dependsOn:\n    - {kind: Workspace, name: w${(i + 1) % n}}\n`,
      ),
    );
    const r = await loadAndValidate({ paths: ['-'], stdin: docs.join('---\n') });
    const cycle = r.diagnostics.filter((d) => d.code === 'dependency-cycle');
    // one error at each manifest on the cycle, each at its own dependsOn entry (the first 1,000
    // listed, the rest counted)
    expect(cycle).toHaveLength(1000);
    expect(r.diagnostics.at(-1)?.code).toBe('too-many-diagnostics');
    expect(cycle[0]!.message).toMatch(
      /^dependency cycle: Workspace platform\/w0 -> Workspace platform\/w1 -> .* -> Workspace platform\/w9 -> \(4981 more\) -> Workspace platform\/w4991 -> .* -> Workspace platform\/w4999 -> Workspace platform\/w0; here its metadata.dependsOn names Workspace platform\/w1$/,
    );
    expect(new Set(cycle.map((d) => d.line)).size).toBe(1000);
  });
});

describe('API groups', () => {
  it('requires the configured group on envelope kinds', async () => {
    const ws = workspace('w').replace('paas.envmgmt.io/v1', 'paas.example.io/v1');
    const byDefault = await loadAndValidate({ paths: ['-'], stdin: ws });
    expect(byDefault.diagnostics).toMatchObject([
      {
        code: 'api-version',
        message: 'Workspace must have apiVersion paas.envmgmt.io/v1, not paas.example.io/v1',
      },
    ]);
    const configured = await loadAndValidate({
      paths: ['-'],
      stdin: ws,
      groups: { paas: 'paas.example.io' },
    });
    expect(configured.diagnostics).toEqual([]);
  });
});
