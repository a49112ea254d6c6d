import { describe, expect, it } from 'vitest';
import { loadNotifications } from '../../../src/controller/notify/config.js';
import { formatDiagnostics } from '../../../src/manifests/diagnostics.js';

/** A read port over an in-memory tree of files. */
const files =
  (tree: Record<string, string>) =>
  (path: string): string => {
    const text = tree[path];
    if (text === undefined) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
    return text;
  };

const where = (file: string, tree: Record<string, string>) =>
  loadNotifications(file, files(tree)).diagnostics.map(
    (d) => `${d.file}:${d.line}:${d.col} ${d.code}: ${d.message}`,
  );

describe('the notifications file', () => {
  it('loads a valid YAML file', () => {
    const r = loadNotifications(
      'n.yaml',
      files({
        'n.yaml': [
          'providers:',
          '  - name: ops',
          '    type: slack',
          '    urlFile: /s/slack-url',
          '    minSeverity: warning',
          '  - name: commits',
          '    type: github',
          '    repository: acme/platform',
          '    tokenFile: /s/gh',
          '    events: [revision-applied, revision-rejected]',
          '',
        ].join('\n'),
        '/s/slack-url': 'https://hooks.slack.example/T/B/x\n',
        '/s/gh': 'ghp_x\n',
      }),
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.config?.providers.map((p) => p.name)).toEqual(['ops', 'commits']);
  });

  it('reports every problem at once, each at file:line:col', () => {
    const text = [
      'providers:', // 1
      '  - name: ops', // 2
      '    type: slak', // 3
      '    url: https://hooks.example/x', // 4
      '  - name: commits', // 5
      '    type: github', // 6
      '    repository: acme/platform', // 7
      '    minSeverity: loud', // 8
      '    tokn: x', // 9
      '',
    ].join('\n');
    expect(where('n.yaml', { 'n.yaml': text })).toEqual(
      [
        'n.yaml:3:11 invalid-value: must be one of webhook, slack, github, gitlab, gitea (did you mean slack?)',
        'n.yaml:5:5 missing-field: required field tokenFile is missing',
        'n.yaml:8:18 invalid-value: must be one of info, warning, error',
        'n.yaml:9:5 unknown-field: unknown field tokn (did you mean token?)',
      ].map((l) => expect.stringMatching(new RegExp(`^${l.split(' ')[0]}`))),
    );
  });

  it('checks names, url or urlFile, and that named files can be read, without their content', () => {
    const text = [
      'providers:',
      '  - name: a',
      '    type: webhook',
      '  - name: a',
      '    type: gitea',
      '    url: https://gitea.example/api/v1',
      '    repository: acme/platform',
      '    tokenFile: /s/empty',
      '',
    ].join('\n');
    const out = where('n.yaml', { 'n.yaml': text, '/s/empty': '  \n' });
    expect(out).toEqual([
      'n.yaml:2:5 missing-field: type webhook needs url or urlFile (one of them)',
      'n.yaml:4:11 invalid-value: provider a is named twice',
      'n.yaml:8:16 file-read: tokenFile /s/empty is missing, unreadable or empty',
    ]);
  });

  it('a YAML error, a missing file and a secretFile on a non-webhook are diagnostics too', () => {
    expect(where('n.yaml', { 'n.yaml': 'providers: [\n' })[0]).toMatch(/^n\.yaml:\d+:\d+ yaml-/);
    expect(loadNotifications('gone.yaml', files({})).diagnostics[0]).toMatchObject({
      code: 'file-read',
      file: 'gone.yaml',
    });
    const text =
      'providers:\n  - {name: s, type: slack, url: "https://x.example", secretFile: /k}\n';
    const d = loadNotifications('n.yaml', files({ 'n.yaml': text, '/k': 'key' })).diagnostics;
    expect(formatDiagnostics(d, 'human')).toContain('secretFile is for type webhook only');
  });

  it("takes the dashboard's URL for links to runs, refusing one that is no URL", () => {
    const ok = loadNotifications(
      'n.yaml',
      files({
        'n.yaml':
          'dashboardUrl: https://platctl.example.com\nproviders:\n  - {name: h, type: webhook, url: "https://x.example"}\n',
      }),
    );
    expect(ok.diagnostics).toEqual([]);
    expect(ok.config?.dashboardUrl).toBe('https://platctl.example.com');
    const bad = where('n.yaml', {
      'n.yaml': 'dashboardUrl: platctl.example.com\nproviders: []\n',
    });
    expect(bad.join('\n')).toMatch(/n\.yaml:1:\d+ .*must be an http/);
  });

  it('refuses URLs fetch cannot call, without showing a file content', () => {
    const text = [
      'providers:',
      '  - name: a',
      '    type: webhook',
      '    url: https://bob:pa55@hooks.example/x',
      '  - name: b',
      '    type: slack',
      '    urlFile: /s/slack',
      '',
    ].join('\n');
    const out = where('n.yaml', { 'n.yaml': text, '/s/slack': 'xoxb-not-a-url-4242\n' });
    expect(out).toEqual([
      'n.yaml:4:10 invalid-value: a URL with user:password@ is refused: keep a secret URL in urlFile',
      'n.yaml:7:14 invalid-value: urlFile /s/slack does not hold one http(s) URL without user:password@',
    ]);
    expect(out.join('\n')).not.toContain('xoxb');
  });
});
