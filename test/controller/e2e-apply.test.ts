import { describe, expect, it } from 'vitest';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY, GIT_TOKEN, get, nextStep, WEBHOOK_SECRET } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

const stack = useStack();

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

describe('pruning', () => {
  it('prunes a workspace removed from git, but never acts on a revision with no manifests', async () => {
    commitFiles(
      stack.remote,
      {
        'platform/a.yaml': workspaceYaml('ws-a', 'a'),
        'platform/b.yaml': workspaceYaml('ws-b', 'b'),
      },
      'two workspaces',
    );
    const c = await stack.controller({ prune: true });
    await nextStep(c, (o) => o.result === 'succeeded');
    commitFiles(stack.remote, { 'platform/b.yaml': null }, 'drop ws-b');
    let step = nextStep(c);
    c.loop.trigger('test');
    expect((await step).result).toBe('succeeded');
    expect((await stack.api('GET', `${WORKSPACES}/ws-b`)).status).toBe(404);
    expect((await stack.api('GET', `${WORKSPACES}/ws-a`)).status).toBe(200);

    const before = (await stack.journal()).length;
    commitFiles(
      stack.remote,
      { 'platform/a.yaml': null, 'platform/README.md': 'empty now' },
      'empty',
    );
    step = nextStep(c);
    c.loop.trigger('test');
    await step;
    expect(stack.logs.some((l) => l.includes('"no-manifests"'))).toBe(true);
    const deletes = (await stack.journal()).slice(before).filter((e) => e.method === 'DELETE');
    expect(deletes).toEqual([]);
    expect((await stack.api('GET', `${WORKSPACES}/ws-a`)).status).toBe(200);
  });
});

describe('observability', () => {
  it('counts API requests by endpoint and status, and runs by result', async () => {
    commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-a', 'm') }, 'm');
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    const metrics = (await get(c, '/metrics')).text;
    expect(metrics).toMatch(
      /platctl_api_requests_total\{method="POST",endpoint="\/apis\/\{paas\}\/v1\/projects\/\{project\}\/workspaces",status="2\d\d"\} 1/,
    );
    expect(metrics).toMatch(/platctl_reconcile_runs_total\{result="succeeded"\} 1/);
    expect(metrics).toMatch(/platctl_last_applied_revision_info\{revision="[0-9a-f]{40}"\} 1/);
    expect(metrics).toMatch(/platctl_resources\{kind="Workspace",condition="Ready"\} 1/);
    expect(metrics).toMatch(/platctl_controller_leader 1/);
    const lines = stack.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const created = lines.find(
      (l) => l.event === 'resource' && l.resource === 'Workspace/platform/ws-a',
    );
    expect(created).toMatchObject({ revision: c.status.lastAppliedRevision, action: 'create' });
  });
});
