import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../src/controller/notify/alerts.js';
import {
  type ProviderType,
  RENDERERS,
  type ResolvedProvider,
} from '../../../src/controller/notify/providers/index.js';
import { SLACK_COLORS } from '../../../src/controller/notify/providers/slack.js';
import { sign } from '../../../src/controller/notify/providers/webhook.js';
import { redactAlert } from '../../../src/controller/notify/redact.js';

const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';
const TOKEN = 'forge-token-7d1e9c2a';

const alert = (over: Partial<Alert> = {}): Alert => ({
  kind: 'revision-rejected',
  severity: 'error',
  summary: 'revision 3f786850e387 rejected: its manifests do not validate',
  details: ['platform/ws.yaml:5:3: unknown field descripton (did you mean description?)'],
  resources: [],
  revision: SHA,
  runId: 'run-1',
  source: 'git /tmp/remote.git#main:platform/',
  at: '2026-11-23T12:00:00.000Z',
  ...over,
});

const target = (type: ProviderType, over: Partial<ResolvedProvider> = {}): ResolvedProvider => ({
  name: type,
  type,
  url: 'http://127.0.0.1:9/base/',
  token: TOKEN,
  repository: 'acme/platform',
  context: 'platctl',
  ...over,
});

describe('rendering alerts per provider', () => {
  it('webhook: the alert as JSON, its kind in a header, an HMAC of the exact body', () => {
    const req = RENDERERS.webhook(alert(), target('webhook', { secret: 'hmac-key-1234' }))!;
    expect(JSON.parse(req.body)).toEqual(alert());
    expect(req.headers['x-platctl-event']).toBe('revision-rejected');
    expect(req.headers['x-platctl-signature']).toBe(`sha256=${sign(req.body, 'hmac-key-1234')}`);
    expect(req.headers.authorization).toBeUndefined();
    const unsigned = RENDERERS.webhook(alert(), target('webhook'))!;
    expect(unsigned.headers['x-platctl-signature']).toBeUndefined();
  });

  it('slack: text, and an attachment coloured by severity with blocks', () => {
    const req = RENDERERS.slack(alert({ summary: 'a <b> & c' }), target('slack'))!;
    const body = JSON.parse(req.body);
    expect(body.text).toBe('Revision rejected: a &lt;b&gt; &amp; c');
    expect(body.attachments).toHaveLength(1);
    expect(body.attachments[0].color).toBe(SLACK_COLORS.error);
    const types = body.attachments[0].blocks.map((b: { type: string }) => b.type);
    expect(types).toEqual(['section', 'section', 'context']);
    expect(body.attachments[0].blocks[1].text.text).toContain('platform/ws.yaml:5:3');
    expect(body.attachments[0].blocks[2].elements[0].text).toContain('`3f786850e387`');
    const info = JSON.parse(RENDERERS.slack(alert({ severity: 'info' }), target('slack'))!.body);
    expect(info.attachments[0].color).toBe(SLACK_COLORS.info);
  });

  it('github, gitlab, gitea: a commit status on the revision, the token only in Authorization', () => {
    const gh = RENDERERS.github(alert({ kind: 'revision-applied' }), target('github'))!;
    expect(gh.url).toBe(`http://127.0.0.1:9/base/repos/acme/platform/statuses/${SHA}`);
    expect(JSON.parse(gh.body)).toEqual({
      state: 'success',
      context: 'platctl',
      description: alert().summary,
    });
    expect(gh.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const gl = RENDERERS.gitlab(alert(), target('gitlab', { repository: 'group/sub/proj' }))!;
    expect(gl.url).toBe(`http://127.0.0.1:9/base/projects/group%2Fsub%2Fproj/statuses/${SHA}`);
    expect(JSON.parse(gl.body)).toMatchObject({ state: 'failed', name: 'platctl' });
    const gt = RENDERERS.gitea(alert({ kind: 'prune-blocked' }), target('gitea'))!;
    expect(gt.url).toBe(`http://127.0.0.1:9/base/repos/acme/platform/statuses/${SHA}`);
    expect(JSON.parse(gt.body)).toMatchObject({ state: 'pending', context: 'platctl' });
    expect(gt.headers.authorization).toBe(`token ${TOKEN}`);
    for (const r of [gh, gl, gt]) {
      expect(r.body).not.toContain(TOKEN);
      expect(r.url).not.toContain(TOKEN);
    }
  });

  it('commit statuses say nothing about drift, recoveries or alerts without a revision', () => {
    for (const type of ['github', 'gitlab', 'gitea'] as const) {
      expect(RENDERERS[type](alert({ kind: 'drift-detected' }), target(type))).toBeUndefined();
      expect(RENDERERS[type](alert({ kind: 'recovered' }), target(type))).toBeUndefined();
      const { revision: _r, ...noRev } = alert({ kind: 'run-failed' });
      expect(RENDERERS[type](noRev, target(type))).toBeUndefined();
    }
  });

  it('a description longer than GitHub takes is cut to 140 characters', () => {
    const gh = RENDERERS.github(alert({ summary: 'x'.repeat(300) }), target('github'))!;
    expect((JSON.parse(gh.body).description as string).length).toBe(140);
  });
});

describe('no secret in an alert', () => {
  it('scrubs known secrets and redacts secret-looking text from every string', () => {
    const dirty = alert({
      summary: 'run failed: api said key emu-admin-key-5f3c9a1b7d is wrong',
      details: [
        'ws.yaml:3:1: password=hunter2 is not allowed',
        'https://bob:pa55w0rd@git.example/x',
      ],
    });
    const clean = redactAlert(dirty, ['emu-admin-key-5f3c9a1b7d']);
    const text = JSON.stringify(clean);
    for (const secret of ['emu-admin-key-5f3c9a1b7d', 'hunter2', 'pa55w0rd']) {
      expect(text).not.toContain(secret);
    }
    expect(clean.details[0]).toBe('ws.yaml:3:1: password=*** is not allowed');
    for (const type of ['webhook', 'slack'] as const) {
      const body = RENDERERS[type](clean, target(type))!.body;
      expect(body).not.toContain('hunter2');
    }
  });
});

describe("the run's page in an alert", () => {
  it('links the run on the dashboard when dashboardUrl is set, in every provider', async () => {
    const { withRunLink } = await import('../../../src/controller/notify/notifier.js');
    expect(withRunLink(alert(), undefined)).toEqual(alert());
    expect(withRunLink(alert({ runId: undefined }), 'https://ops.example.com')).not.toHaveProperty(
      'url',
    );
    const linked = withRunLink(alert({ runId: 'r 1/2' }), 'https://ops.example.com/platctl/');
    const url = 'https://ops.example.com/platctl/runs/r%201%2F2';
    expect(linked.url).toBe(url);
    for (const type of ['github', 'gitea', 'gitlab'] as const) {
      const body = JSON.parse(RENDERERS[type](linked, target(type))!.body);
      expect(body.target_url, type).toBe(url);
      expect(JSON.parse(RENDERERS[type](alert(), target(type))!.body), type).not.toHaveProperty(
        'target_url',
      );
    }
    const slack = JSON.parse(RENDERERS.slack(linked, target('slack'))!.body);
    expect(slack.attachments[0].blocks.at(-1).elements[0].text).toContain(`<${url}|run r 1/2>`);
    expect(JSON.parse(RENDERERS.webhook(linked, target('webhook'))!.body).url).toBe(url);
  });
});
