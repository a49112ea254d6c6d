// biome-ignore-all lint/suspicious/noTemplateCurlyInString: manifests spell ${VAR} literally
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles } from './helpers/git-remote.js';
import { API_KEY, nextStep, WEBHOOK_SECRET } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

// Issue 22, item 7: in a controller, anyone who can commit could have a user's password read
// from the controller's own key (a copy, its mounted file, /proc/self/environ) and sent to the
// platform. Every such reference is refused before anything is sent.
const stack = useStack();

const user = (name: string, file: string) =>
  [
    'apiVersion: platctl.io/v1alpha1',
    'kind: User',
    'metadata:',
    `  name: ${name}@acme.example`,
    'spec:',
    '  first_name: Mallory',
    '  last_name: Commit',
    '  user_type: CONSOLE',
    `  passwordFrom: {file: ${file}}`,
    '',
  ].join('\n');

describe('a committed passwordFrom.file that reads the controller’s credentials', () => {
  it('is refused: the run fails before any write, and no credential reaches the platform or the log', async () => {
    const copy = join(stack.root, 'copied-key');
    writeFileSync(copy, `${API_KEY}\n`);
    const mounted = join(stack.root, 'webhook-secret');
    writeFileSync(mounted, WEBHOOK_SECRET);
    commitFiles(
      stack.remote,
      {
        'platform/copy.yaml': user('copy', copy),
        'platform/mounted.yaml': user('mounted', mounted),
      },
      'new users',
    );
    const c = await stack.controller({ credentialFiles: [mounted] });
    const o = await nextStep(c);
    expect(o.result).toBe('failed');
    const writes = (await stack.journal()).filter((e) => e.method !== 'GET');
    expect(writes).toEqual([]);
    const logs = stack.logs.join('\n');
    expect(logs).not.toContain(API_KEY);
    expect(logs).not.toContain(WEBHOOK_SECRET);
    expect(JSON.stringify(c.status)).not.toContain(API_KEY);
  });

  it('is refused at validate when it names /proc: the revision is rejected', async () => {
    commitFiles(stack.remote, { 'platform/env.yaml': user('env', '/proc/self/environ') }, 'env');
    const c = await stack.controller();
    const o = await nextStep(c);
    expect(o.result).toBe('invalid');
    expect(c.status.lastDiagnostics).toMatchObject([
      { code: 'refused-file', message: expect.stringContaining('/proc/self/environ') },
    ]);
    expect((await stack.journal()).filter((e) => e.method !== 'GET')).toEqual([]);
  });
});

// Issue 22, item 9: the key's halves, each harmless alone, joined by a committed manifest.
describe('a committed manifest joining variables into the controller’s key', () => {
  it('is refused at validate, at the scalar; the key is nowhere', async () => {
    process.env.PLATCTL_VAR_KEY_HEAD = API_KEY.slice(0, 9);
    process.env.PLATCTL_VAR_KEY_TAIL = API_KEY.slice(9);
    try {
      commitFiles(
        stack.remote,
        {
          'platform/ws.yaml': [
            'apiVersion: paas.envmgmt.io/v1',
            'kind: Workspace',
            'metadata:',
            '  name: joined',
            '  project: platform',
            '  description: "${KEY_HEAD}${KEY_TAIL}"',
            '',
          ].join('\n'),
        },
        'joined',
      );
      const c = await stack.controller();
      const o = await nextStep(c);
      expect(o.result).toBe('invalid');
      expect(c.status.lastDiagnostics).toMatchObject([
        { code: 'refused-variable', message: expect.stringContaining('${KEY_HEAD}, ${KEY_TAIL}') },
      ]);
      expect((await stack.journal()).filter((e) => e.method !== 'GET')).toEqual([]);
      expect(stack.logs.join('\n')).not.toContain(API_KEY);
      expect(JSON.stringify(c.status)).not.toContain(API_KEY.slice(9));
    } finally {
      delete process.env.PLATCTL_VAR_KEY_HEAD;
      delete process.env.PLATCTL_VAR_KEY_TAIL;
    }
  });
});
