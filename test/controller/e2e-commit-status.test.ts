import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationConfig } from '../../src/controller/notify/config.js';
import { commitFiles } from './helpers/git-remote.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.js';
import { createStack, nextStep, type Stack } from './helpers/stack.js';

/**
 * GitLab and Gitea commit statuses from a real controller (issue 9, notifications): the emulator,
 * a bare repository, and one loopback receiver standing in for both forges' APIs.
 */
let stack: Stack;
let rx: Receiver;
beforeEach(async () => {
  stack = await createStack();
  rx = await startReceiver();
});
afterEach(async () => {
  await stack.close();
  await rx.close();
});

const GITLAB_TOKEN = 'glpat-e2e-7d2c91';
const GITEA_TOKEN = 'gitea-e2e-0b4f66';

async function forges(): Promise<NotificationConfig> {
  const gitlabToken = join(stack.root, 'gitlab-token');
  const giteaToken = join(stack.root, 'gitea-token');
  await writeFile(gitlabToken, `${GITLAB_TOKEN}\n`);
  await writeFile(giteaToken, `${GITEA_TOKEN}\n`);
  return {
    providers: [
      {
        name: 'lab',
        type: 'gitlab',
        url: `${rx.url}/gitlab/api/v4`,
        tokenFile: gitlabToken,
        repository: 'infra/platform',
      },
      {
        name: 'tea',
        type: 'gitea',
        url: `${rx.url}/gitea/api/v1/`,
        tokenFile: giteaToken,
        repository: 'ops/platform',
        context: 'platctl/prod',
      },
    ],
  };
}

const onPath = (path: string) => (r: Received) => r.path === path;

describe('commit statuses on GitLab and Gitea', () => {
  it('mark the applied sha on each forge in its own spelling, with its own token scheme', async () => {
    const sha = commitFiles(
      stack.remote,
      { 'platform/ws.yaml': workspaceYaml('ws-c', 'one') },
      'one',
    );
    const c = await stack.controller({ notifications: await forges() });
    await nextStep(c, (o) => o.result === 'succeeded');

    const lab = await rx.waitFor(
      onPath(`/gitlab/api/v4/projects/infra%2Fplatform/statuses/${sha}`),
    );
    expect(lab.method).toBe('POST');
    expect(lab.headers.authorization).toBe(`Bearer ${GITLAB_TOKEN}`);
    expect(lab.headers['content-type']).toBe('application/json');
    expect(lab.json).toEqual({
      state: 'success',
      name: 'platctl',
      description: expect.stringContaining(sha.slice(0, 7)),
    });

    const tea = await rx.waitFor(onPath(`/gitea/api/v1/repos/ops/platform/statuses/${sha}`));
    expect(tea.method).toBe('POST');
    expect(tea.headers.authorization).toBe(`token ${GITEA_TOKEN}`);
    expect(tea.json).toEqual({
      state: 'success',
      context: 'platctl/prod',
      description: expect.stringContaining(sha.slice(0, 7)),
    });
    // nothing but these two, and no token anywhere in a body
    expect(rx.received).toHaveLength(2);
    for (const r of rx.received) expect(r.body).not.toMatch(/glpat|gitea-e2e/);
  });

  it('a 429 with Retry-After is honoured: the status comes again no sooner than asked', async () => {
    let refused = 0;
    rx.answer = (r) =>
      r.path.startsWith('/gitlab/') && refused++ === 0
        ? { status: 429, headers: { 'retry-after': '3' } }
        : 201;
    const sha = commitFiles(
      stack.remote,
      { 'platform/ws.yaml': workspaceYaml('ws-r', 'one') },
      'one',
    );
    const c = await stack.controller({ notifications: await forges() });
    await nextStep(c, (o) => o.result === 'succeeded');
    const path = `/gitlab/api/v4/projects/infra%2Fplatform/statuses/${sha}`;
    await rx.waitFor((r) => r.path === path && rx.received.filter(onPath(path)).length === 2);
    const [first, second] = rx.received.filter(onPath(path));
    expect(second!.body).toBe(first!.body);
    // a lower bound only: the queue's own backoff (2 s) would have come sooner
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2_990);
    await c.stop();
    const counted = await c.metrics.registry.getSingleMetricAsString('platctl_notifications_total');
    expect(counted).toMatch(/type="gitlab",outcome="sent"\} 1/);
  });
});
