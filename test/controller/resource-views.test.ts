import { describe, expect, it } from 'vitest';
import {
  actionHistory,
  computeOf,
  documentAt,
  liveDocument,
  maskSecrets,
} from '../../src/controller/http/resource-views.js';
import type { StoredRun } from '../../src/controller/status/history.js';

const run = (runId: string, startedAt: string, actions: StoredRun['actions']): StoredRun => ({
  runId,
  trigger: 'interval',
  startedAt,
  durationMs: 1,
  result: 'planned',
  counts: { create: 0, update: 0, delete: 0, other: 0, failed: 0, skipped: 0 },
  failures: [],
  actions,
});
const K = 'Workspace/p/a';
const planned = { key: K, type: 'update', reason: 'drift', outcome: 'planned' };

describe("a resource's action history", () => {
  it('keeps an action repeated by consecutive runs once, with its count and since when', () => {
    const runs = [
      run('r4', 't4', [planned]),
      run('r3', 't3', [planned, { ...planned, key: 'Workspace/p/other' }]),
      run('r2', 't2', [planned]),
      run('r1', 't1', [{ key: K, type: 'create', reason: 'absent', outcome: 'succeeded' }]),
    ];
    expect(actionHistory(runs, K)).toEqual([
      {
        runId: 'r4',
        type: 'update',
        reason: 'drift',
        outcome: 'planned',
        at: 't4',
        count: 3,
        since: 't2',
      },
      { runId: 'r1', type: 'create', reason: 'absent', outcome: 'succeeded', at: 't1', count: 1 },
    ]);
  });

  it('keeps apart what differs: another outcome, another error, a run between them', () => {
    const failed = { ...planned, outcome: 'failed', error: '500' };
    const runs = [
      run('r4', 't4', [failed]),
      run('r3', 't3', [{ ...failed, error: '503' }]),
      run('r2', 't2', [planned]),
      run('r1', 't1', [planned]),
    ];
    expect(actionHistory(runs, K).map((e) => [e.runId, e.count])).toEqual([
      ['r4', 1],
      ['r3', 1],
      ['r2', 2],
    ]);
  });
});

describe('secrets in the documents served', () => {
  it('masks secret-named values at any depth, keeps references and structure', () => {
    const doc = {
      spec: {
        password: 'hunter2',
        passwordFrom: { env: 'DB_PASSWORD' },
        variables: [{ name: 'x', apiKey: 'k-1' }],
        token: null,
        size: 3,
      },
    };
    expect(maskSecrets(doc)).toEqual({
      spec: {
        password: '********',
        passwordFrom: { env: 'DB_PASSWORD' },
        variables: [{ name: 'x', apiKey: '********' }],
        token: null,
        size: 3,
      },
    });
    expect(doc.spec.password).toBe('hunter2'); // copied, not changed
    expect(liveDocument({ body: doc, powerState: 'on' }).body).toMatchObject({
      spec: { password: '********' },
    });
  });

  it('cuts the YAML document at a line out of its file, secrets masked', () => {
    const text = [
      '# header',
      '---',
      'kind: User',
      'metadata:',
      '  name: dana',
      'spec:',
      '  password: "hunter2"',
      '  passwordFrom:',
      '    env: PW',
      '  - apiToken: abc',
      '',
      '---',
      'kind: Workspace',
      '',
    ].join('\n');
    expect(documentAt(text, 3)).toBe(
      [
        'kind: User',
        'metadata:',
        '  name: dana',
        'spec:',
        '  password: ********',
        '  passwordFrom:',
        '    env: PW',
        '  - apiToken: ********',
      ].join('\n'),
    );
    expect(documentAt(text, 12)).toBe('kind: Workspace');
    expect(documentAt('a:\n  token: &t abc\n  apiKey: *t', 1)).toBe(
      'a:\n  token: &t ********\n  apiKey: *t',
    );
    const block = ['spec:', '  privateKey: |', '    -----BEGIN-----', '    abc', '  size: 1'].join(
      '\n',
    );
    expect(documentAt(block, 1)).toBe(
      ['spec:', '  privateKey: |', '    ********', '    ********', '  size: 1'].join('\n'),
    );
    expect(documentAt('kind: A\n...\nx: 1', 1)).toBe('kind: A');
  });
});

describe("a compute instance's size", () => {
  const spec = {
    computeType: 'k8s',
    computeProfile: { name: 'gpu-k8s' },
    variables: [{ name: 'H100 Worker Nodes', value: 2 }],
  };

  it('reads the profile and units from the live spec first, with its power state', () => {
    const compute = computeOf(
      'ComputeInstance',
      { spec: { computeProfile: { name: 'cpu' } } },
      {
        body: { spec },
        powerState: 'off',
      },
    );
    expect(compute).toMatchObject({ profile: 'gpu-k8s', units: 2, powerState: 'off' });
  });

  it('falls back on the desired spec, and is nothing for other kinds', () => {
    expect(computeOf('ComputeInstance', { spec }, undefined)).toMatchObject({
      profile: 'gpu-k8s',
      units: 2,
    });
    expect(computeOf('Workspace', { spec }, undefined)).toBeUndefined();
  });
});
