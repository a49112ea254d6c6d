import { describe, expect, it, vi } from 'vitest';
import type { Condition, ResourceItem } from '../../web/src/api/types.js';
import { coalesce } from '../../web/src/lib/coalesce.js';
import { diagnosticAt, formatDuration, shortRevision } from '../../web/src/lib/format.js';
import { createSseParser } from '../../web/src/lib/sse.js';
import { buildProjects, flatten, NO_PROJECT } from '../../web/src/lib/tree.js';
import { usageByProject } from '../../web/src/lib/usage.js';

let order = 0;
function item(key: string, condition: Condition = 'Ready', dependsOn: string[] = []): ResourceItem {
  const parts = key.split('/');
  const kind = parts[0]!;
  const name = parts.at(-1)!;
  const project = parts.length > 2 ? parts[1] : undefined;
  const workspace = parts.length > 3 ? parts[2] : undefined;
  return {
    key,
    kind,
    name,
    ...(project ? { project } : {}),
    ...(workspace ? { workspace } : {}),
    condition,
    reason: condition === 'Ready' ? 'Applied' : 'Drift',
    lastTransitionTime: '2026-01-01T00:00:00Z',
    order: order++,
    dependsOn,
  };
}

describe('the resource graph', () => {
  const items = [
    item('User/alice'),
    item('Service/ml/vpc-ml'),
    item('Workspace/ml/exp'),
    item('ComputeInstance/ml/exp/box', 'Drifted'),
    item('Cluster/ml/train'),
    item('ClusterControllers/ml/train', 'Progressing'),
    item('BlueprintPublish/ml/train-stack', 'Ready', ['Cluster/ml/train']),
    item('Workspace/platform/shared'),
    item('ComputeInstance/platform/shared/h100'),
  ];

  it('nests instances under workspaces and add-ons under clusters, projects in engine order', () => {
    const groups = buildProjects([...items].reverse());
    expect(groups.map((g) => g.project)).toEqual([NO_PROJECT, 'ml', 'platform']);
    const ml = groups[1]!;
    expect(ml.roots.map((n) => n.item.key)).toEqual([
      'Service/ml/vpc-ml',
      'Workspace/ml/exp',
      'Cluster/ml/train',
    ]);
    expect(ml.roots[1]!.children.map((n) => n.item.key)).toEqual(['ComputeInstance/ml/exp/box']);
    expect(ml.roots[2]!.children.map((n) => n.item.key)).toEqual([
      'ClusterControllers/ml/train',
      'BlueprintPublish/ml/train-stack',
    ]);
    expect(ml.counts).toEqual({
      Ready: 4,
      Progressing: 1,
      Degraded: 0,
      Drifted: 1,
      Suspended: 0,
      Orphaned: 0,
    });
  });

  it('flattens depth-first and leaves collapsed projects as one row', () => {
    const rows = flatten(buildProjects(items), new Set(['ml']));
    expect(
      rows.map((r) => (r.type === 'project' ? `# ${r.group.project}` : `${r.depth} ${r.item.key}`)),
    ).toEqual([
      `# ${NO_PROJECT}`,
      '1 User/alice',
      '# ml',
      '# platform',
      '1 Workspace/platform/shared',
      '2 ComputeInstance/platform/shared/h100',
    ]);
  });

  it('keeps a child whose holder is filtered out as a root of its project', () => {
    const groups = buildProjects([items[3]!]);
    expect(groups[0]!.roots.map((n) => n.item.key)).toEqual(['ComputeInstance/ml/exp/box']);
  });

  it('nests 10,000 resources in 20 projects into 10,020 rows', () => {
    const many: ResourceItem[] = [];
    for (let p = 0; p < 20; p++) {
      many.push(item(`Workspace/p${p}/ws`));
      for (let i = 0; i < 499; i++) many.push(item(`ComputeInstance/p${p}/ws/vm-${i}`));
    }
    const rows = flatten(buildProjects(many), new Set());
    expect(rows).toHaveLength(10_020);
    expect(rows.filter((r) => r.type === 'resource' && r.depth === 2)).toHaveLength(9980);
  });
});

describe('the event stream parser', () => {
  it('joins events split anywhere, skips comments, and handles CRLF', () => {
    const parse = createSseParser();
    const text =
      ': ping\n\nevent: status\ndata: {"a":\ndata: 1}\n\nevent: run\r\ndata: {"runId":"r1"}\r\n\r\n';
    const events = [];
    for (let i = 0; i < text.length; i += 3) events.push(...parse(text.slice(i, i + 3)));
    expect(events).toEqual([
      { event: 'status', data: '{"a":\n1}' },
      { event: 'run', data: '{"runId":"r1"}' },
    ]);
  });
});

describe('formatting and usage', () => {
  it('shows revisions, diagnostics and durations compactly', () => {
    expect(shortRevision('a'.repeat(40))).toBe('aaaaaaa');
    expect(
      diagnosticAt({ file: 'a.yaml', line: 3, column: 7, message: 'x', severity: 'error' }),
    ).toBe('a.yaml:3:7');
    expect(diagnosticAt({ file: 'a.yaml', line: 3, message: 'x', severity: 'error' })).toBe(
      'a.yaml:3',
    );
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(3_599_600)).toBe('1 h 0 min'); // not "59 min 60 s"
    expect(formatDuration(4_830_000)).toBe('1 h 20 min');
  });

  it('sums usage per project and profile, most hours first', () => {
    const { rows, profiles } = usageByProject([
      { project: 'ml', profile: 'bmaas-l40s', instance: 'a', hours: 1.5, gpuHours: 12 },
      { project: 'platform', profile: 'bmaas-h100', instance: 'b', hours: 3, gpuHours: 24 },
      { project: 'ml', profile: 'bmaas-h100', instance: 'c', hours: 0.25, gpuHours: 2 },
      { project: 'ml', profile: 'bmaas-l40s', instance: 'd', hours: 2 },
    ]);
    expect(profiles).toEqual(['bmaas-h100', 'bmaas-l40s']);
    expect(rows).toEqual([
      { project: 'ml', 'bmaas-l40s': 3.5, 'bmaas-h100': 0.25, total: 3.75, gpuHours: 14 },
      { project: 'platform', 'bmaas-h100': 3, total: 3, gpuHours: 24 },
    ]);
  });
});

describe('coalescing reloads', () => {
  it('runs at once when idle, and once more after a burst of triggers while running', async () => {
    vi.useFakeTimers();
    try {
      const finish: (() => void)[] = [];
      let runs = 0;
      const trigger = coalesce(() => {
        runs++;
        return new Promise<void>((r) => finish.push(r));
      }, 1000);
      trigger();
      expect(runs).toBe(1);
      for (let i = 0; i < 50; i++) trigger();
      expect(runs).toBe(1);
      finish.shift()!();
      await vi.advanceTimersByTimeAsync(999);
      expect(runs).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(runs).toBe(2);
      finish.shift()!();
      await vi.advanceTimersByTimeAsync(5000);
      expect(runs).toBe(2);
      trigger();
      expect(runs).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
