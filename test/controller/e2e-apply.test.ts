import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitFiles } from './helpers/git-remote.js';
import {
  API_KEY,
  createStack,
  GIT_TOKEN,
  get,
  nextStep,
  type Stack,
  WEBHOOK_SECRET,
  WORKSPACES,
  workspaceYaml,
} from './helpers/stack.js';

let stack: Stack;
beforeEach(async () => {
  stack = await createStack();
});
afterEach(async () => {
  await stack.close();
});

function noSecrets(text: string): void {
  for (const s of [API_KEY, GIT_TOKEN, WEBHOOK_SECRET]) expect(text).not.toContain(s);
}

describe('controller end to end (emulator + bare git repository)', () => {
  it('applies a commit, then rejects a bad commit and keeps the last good state', async () => {
    const sha1 = commitFiles(
      stack.remote,
      { 'platform/ws.yaml': workspaceYaml('ws-a', 'first') },
      'add ws-a',
    );
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    expect(c.status.lastAppliedRevision).toBe(sha1);
    const live = await stack.api('GET', `${WORKSPACES}/ws-a`);
    expect(live.status).toBe(200);
    expect(c.status.inventory).toContain('Workspace/platform/ws-a');

    const sha2 = commitFiles(
      stack.remote,
      {
        'platform/ws.yaml': `${workspaceYaml('ws-a', 'second')}---\nkind: Workspace\nmetadata: [broken\n`,
      },
      'bad commit',
    );
    const before = (await stack.journal()).length;
    const rejected = nextStep(c, (o) => o.result === 'invalid');
    c.loop.trigger('test');
    await rejected;
    expect(c.status.lastAttemptedRevision).toBe(sha2);
    expect(c.status.lastAppliedRevision).toBe(sha1);
    expect(c.status.lastDiagnostics.length).toBeGreaterThan(0);
    const writes = (await stack.journal()).slice(before).filter((e) => e.method !== 'GET');
    expect(writes).toEqual([]); // nothing sent for the bad revision
    const ws = (await stack.api('GET', `${WORKSPACES}/ws-a`)).body as {
      metadata: { description?: string };
    };
    expect(ws.metadata.description).toBe('first');

    const status = await get(c, '/status');
    expect(JSON.parse(status.text)).toMatchObject({
      lastGoodRevision: sha1,
      lastAppliedRevision: sha1,
    });
    noSecrets(status.text);
    noSecrets((await get(c, '/metrics')).text);
    noSecrets(stack.logs.join('\n'));
  });
});
