import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusView, StepView } from '../../../src/controller/notify/alerts.js';
import type { NotificationConfig } from '../../../src/controller/notify/config.js';
import { createNotifier } from '../../../src/controller/notify/notifier.js';
import { systemClock } from '../../../src/core/clock.js';
import { memoryLogger } from '../helpers/fakes.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

const API_KEY = 'api-key-never-sent-9a8b7c';
const TOKEN = 'gh-token-only-in-authorization-1f2e';
const SLACK_URL_PATH = '/slack/T000/B000/secret-path-77';

let rx: Receiver;
beforeEach(async () => {
  rx = await startReceiver();
});
afterEach(async () => {
  await rx.close();
});

const status = (over: Partial<StatusView> = {}): StatusView => ({
  source: 'git /repo.git#main:platform/',
  sourceReady: true,
  rejected: [],
  rejectedRevisions: [],
  drift: [],
  conditions: [],
  ...over,
});

const failed: StepView = {
  result: 'failed',
  runId: 'r1',
  revision: 'a'.repeat(40),
  report: {
    drift: [],
    resources: [
      {
        key: 'Workspace/platform/w',
        action: 'create',
        outcome: 'failed',
        error: `HTTP 401: key ${API_KEY} refused`,
      },
    ],
  },
};

function notifier(config: NotificationConfig, files: Record<string, string> = {}) {
  const log = memoryLogger();
  const sent: string[] = [];
  const n = createNotifier(config, {
    clock: systemClock,
    logger: log.logger,
    secrets: [API_KEY],
    readFile: (p) => {
      const v = files[p];
      if (v === undefined) throw new Error('ENOENT');
      return v;
    },
    onDelivery: (type, outcome) => sent.push(`${type}:${outcome}`),
    delivery: { retryBaseMs: 5, retryMaxMs: 20, maxAttempts: 3 },
  });
  return { n, sent, log };
}

describe('notifier against a loopback receiver', () => {
  it('delivers to each provider in its shape, filtered, with no secret outside Authorization', async () => {
    const { n, sent } = notifier(
      {
        providers: [
          { name: 'hook', type: 'webhook', url: `${rx.url}/hook`, secretFile: '/s/hmac' },
          { name: 'chat', type: 'slack', urlFile: '/s/slack', minSeverity: 'error' },
          {
            name: 'gh',
            type: 'github',
            url: rx.url,
            repository: 'acme/platform',
            tokenFile: '/s/gh',
          },
        ],
      },
      { '/s/hmac': 'hmac-secret-3c4d', '/s/slack': `${rx.url}${SLACK_URL_PATH}`, '/s/gh': TOKEN },
    );
    n.observe(status({ lastError: 'x' }), failed);
    n.observe(status({ lastAppliedRevision: 'b'.repeat(40) }), {
      ...failed,
      result: 'succeeded',
      report: { drift: [], resources: [] },
    });
    await n.close(5_000);
    const paths = rx.received.map((r) => r.path).sort();
    expect(paths).toEqual([
      '/hook',
      '/hook',
      '/hook',
      `/repos/acme/platform/statuses/${'a'.repeat(40)}`,
      `/repos/acme/platform/statuses/${'b'.repeat(40)}`,
      SLACK_URL_PATH,
    ]);
    expect(rx.received.filter((r) => r.path === '/hook').map((r) => r.json.kind)).toEqual([
      'run-failed',
      'recovered',
      'revision-applied',
    ]);
    const slack = rx.received.find((r) => r.path === SLACK_URL_PATH)!;
    expect(slack.json.attachments[0].color).toBe('#d1242f');
    expect(sent.sort()).toEqual([
      'github:sent',
      'github:sent',
      'slack:sent',
      'webhook:sent',
      'webhook:sent',
      'webhook:sent',
    ]);
    for (const r of rx.received) {
      const { authorization, ...rest } = r.headers;
      const text = r.body + JSON.stringify(rest);
      for (const secret of [API_KEY, TOKEN, 'hmac-secret-3c4d', 'secret-path-77']) {
        expect(text).not.toContain(secret);
      }
      if (r.path.startsWith('/repos/')) expect(authorization).toBe(`Bearer ${TOKEN}`);
      else expect(authorization).toBeUndefined();
    }
  });

  it('retries a 5xx, never a 4xx, and logs failures without the URL', async () => {
    let calls = 0;
    rx.answer = (r) => (r.path === '/gone' ? 404 : ++calls === 1 ? 503 : 200);
    const { n, sent, log } = notifier({
      providers: [
        { name: 'flaky', type: 'webhook', url: `${rx.url}/flaky` },
        { name: 'gone', type: 'webhook', url: `${rx.url}/gone` },
      ],
    });
    n.observe(status(), failed);
    await n.close(5_000);
    expect(rx.received.filter((r) => r.path === '/flaky')).toHaveLength(2);
    expect(rx.received.filter((r) => r.path === '/gone')).toHaveLength(1);
    expect(sent.sort()).toEqual(['webhook:failed', 'webhook:sent']);
    const failure = log.lines.find((l) => l.includes('notify-failed'))!;
    expect(failure).toContain('HTTP 404');
    expect(log.lines.join('\n')).not.toContain(rx.url);
  });

  it('a receiver that is down fails after bounded retries, counted; observe never waits', async () => {
    await rx.close();
    const { n, sent } = notifier({
      providers: [{ name: 'down', type: 'webhook', url: `${rx.url}/x` }],
    });
    n.observe(status(), failed); // returns at once: delivery is on the queue
    await n.close(5_000);
    expect(sent).toEqual(['webhook:failed']);
    rx = await startReceiver(); // for afterEach
  });

  it('sharded replicas: one sends what is about the source, each what is about its shards', async () => {
    const rejected = (replica: string, held: string[]): StatusView =>
      status({
        sourceReady: false,
        fetchedRevision: 'c'.repeat(40),
        rejectedRevisions: ['c'.repeat(40)],
        rejected: [{ revision: 'c'.repeat(40), diagnostics: [] }],
        drift: [`Workspace/${held[0]}/w`],
        conditions: [{ key: `Workspace/${held[0]}/w`, condition: 'Drifted', reason: 'Drift' }],
        shards: { replica, held },
      });
    const step = (held: string[]): StepView => ({
      result: 'invalid',
      revision: 'b'.repeat(40),
      report: { drift: [`Workspace/${held[0]}/w`], resources: [] },
    });
    const config: NotificationConfig = {
      providers: [{ name: 'hook', type: 'webhook', url: `${rx.url}/hook` }],
    };
    const a = notifier(config).n;
    const b = notifier(config).n;
    a.observe(rejected('replica-a', ['project:one', 'global']), step(['project:one']));
    b.observe(rejected('replica-b', ['project:two']), step(['project:two']));
    await Promise.all([a.close(5_000), b.close(5_000)]);
    const got = rx.received.map((r) => `${r.json.replica} ${r.json.kind}`).sort();
    expect(got).toEqual([
      'replica-a drift-detected',
      'replica-a revision-rejected',
      'replica-b drift-detected',
    ]);
  });

  it('a fault while deriving alerts is logged, never thrown into the loop', () => {
    const { n, log } = notifier({ providers: [{ name: 'h', type: 'webhook', url: rx.url }] });
    expect(() => n.observe({} as StatusView, { result: 'succeeded' })).not.toThrow();
    expect(log.lines.some((l) => l.includes('"event":"notify-error"'))).toBe(true);
  });
});
