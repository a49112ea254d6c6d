import { describe, expect, it, vi } from 'vitest';
import type { ProjectGroup } from '../../web/src/api/resources.js';
import { coalesce } from '../../web/src/lib/coalesce.js';
import { diagnosticAt, formatDuration, shortRevision } from '../../web/src/lib/format.js';
import { groupName, layoutRows, NO_PROJECT, pagesOf } from '../../web/src/lib/rows.js';
import { nextSort, sortOf, sortParam } from '../../web/src/lib/sort.js';
import { createSseParser } from '../../web/src/lib/sse.js';
import { statusOrder } from '../../web/src/lib/status-order.js';
import { usageByProject } from '../../web/src/lib/usage.js';

const group = (project: string | undefined, total: number): ProjectGroup => ({
  ...(project ? { project } : {}),
  total,
  counts: { Ready: total },
});

describe("the resource list's lines over the server's pages", () => {
  const groups = [group(undefined, 1), group('ml', 6), group('platform', 2)];
  const lines = (collapsed: string[]) => {
    const layout = layoutRows(groups, new Set(collapsed));
    return Array.from({ length: layout.count }, (_, i) => {
      const row = layout.rowAt(i);
      return row.type === 'project' ? `# ${groupName(row.group)}` : `${row.offset}`;
    });
  };

  it("puts each project's header before its resources, offsets following the server's list", () => {
    expect(lines([])).toEqual([
      '# (organization)',
      '0',
      '# ml',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '# platform',
      '7',
      '8',
    ]);
    expect(NO_PROJECT).toBe('(organization)');
  });

  it('leaves a collapsed project as its header, later offsets unchanged', () => {
    expect(lines(['ml'])).toEqual(['# (organization)', '0', '# ml', '# platform', '7', '8']);
  });

  it('lays out 100,000 resources in 1,000 projects without a line each', () => {
    const many = Array.from({ length: 1000 }, (_, p) => group(`p${p}`, 100));
    const layout = layoutRows(many, new Set());
    expect(layout.count).toBe(101_000);
    expect(layout.rowAt(101_000 - 1)).toEqual({ type: 'resource', offset: 99_999 });
    expect(layout.rowAt(101 * 500)).toMatchObject({ type: 'project', group: { project: 'p500' } });
  });

  it('names the pages that hold a range of offsets', () => {
    expect(pagesOf(0, 15, 200)).toEqual([0]);
    expect(pagesOf(190, 210, 200)).toEqual([0, 1]);
  });
});

describe("the resource list's order in the URL", () => {
  it('reads ?sort=, ignoring what the server would refuse, and writes it back', () => {
    expect(sortOf('-changed')).toEqual({ field: 'changed', descending: true });
    expect(sortOf('name')).toEqual({ field: 'name', descending: false });
    expect(sortOf('size')).toBeUndefined();
    expect(sortOf('--name')).toBeUndefined();
    expect(sortOf(null)).toBeUndefined();
    expect(sortParam(sortOf('-kind'))).toBe('-kind');
    expect(sortParam(undefined)).toBeUndefined();
  });

  it('cycles a header: ascending, descending, then the engine order', () => {
    const asc = nextSort(undefined, 'kind');
    expect(asc).toEqual({ field: 'kind', descending: false });
    const desc = nextSort(asc, 'kind');
    expect(desc).toEqual({ field: 'kind', descending: true });
    expect(nextSort(desc, 'kind')).toBeUndefined();
    expect(nextSort(desc, 'name')).toEqual({ field: 'name', descending: false });
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

describe('which status reads the page takes beside the event stream', () => {
  it('drops a read whose answer comes after a status the stream delivered meanwhile', () => {
    const order = statusOrder();
    const early = order.read();
    order.streamed(); // perhaps newer than what the read was answered with
    expect(early()).toBe(false);
    const late = order.read(); // sent after the stream's last status: answered after it
    expect(late()).toBe(true);
  });

  it('takes every read while nothing streams (the page polls then)', () => {
    const order = statusOrder();
    const reads = [order.read(), order.read(), order.read()];
    expect(reads.map((taken) => taken())).toEqual([true, true, true]);
  });
});
