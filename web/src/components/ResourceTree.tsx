import { Button, Card, Group, Text, TextInput } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Condition } from '../api/resources.js';
import { groupName, layoutRows } from '../lib/rows.js';
import { type ListSort, type SortField, sortParam } from '../lib/sort.js';
import { ProjectRow, ResourceRow, SortHeader } from './ResourceRows.js';
import { useResourcePages } from './useResourcePages.js';

interface Props {
  readonly filter: Condition | undefined;
  /** The key filter's text (kept in the URL by the view). */
  readonly query: string;
  onQuery(text: string): void;
  /** The column the server orders the list by (kept in the URL by the view). */
  readonly sort: ListSort | undefined;
  onSort(field: SortField): void;
  /** Bumped when the status changed: the list is read again. */
  readonly generation: number;
}

const ROW_HEIGHT = 34;
const ROW_STYLE = {
  position: 'absolute',
  top: 0,
  left: 0,
  right: 0,
  height: ROW_HEIGHT,
  padding: '4px var(--mantine-spacing-sm)',
} as const;

/**
 * The resource list: one collapsible group per project, resources nested under their workspace
 * or cluster, all in engine order (or, sorted by a column, flat under each project), coloured by
 * condition with the reason beside it. The control API filters, sorts and pages it
 * (`view=tree`); the page reads the first page with the projects' counts, then the pages the rows
 * in view fall on, so 100,000 resources cost the browser a few pages. Each resource is a link to
 * its page.
 */
export function ResourceTree({ filter, query, onQuery, sort, onSort, generation }: Props) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const list = useResourcePages(
    { ...(filter ? { condition: filter } : {}), q: query, sort: sortParam(sort) },
    generation,
  );
  const layout = useMemo(() => layoutRows(list.groups, collapsed), [list.groups, collapsed]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: layout.count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const inView = virtual.getVirtualItems();
  const first = inView[0]?.index ?? 0;
  const last = inView.at(-1)?.index ?? -1;
  const { want } = list;
  useEffect(() => {
    // the offsets of the resources on screen: headers hold none
    const offsets: number[] = [];
    for (let i = first; i <= last && i < layout.count; i++) {
      const row = layout.rowAt(i);
      if (row.type === 'resource') offsets.push(row.offset);
    }
    if (offsets.length > 0) want(offsets[0]!, offsets.at(-1)!);
  }, [first, last, layout, want]);
  // stable, so the memoized project lines are not drawn again on each key typed
  const toggle = useCallback(
    (project: string) =>
      setCollapsed((prev) => {
        const next = new Set(prev);
        if (!next.delete(project)) next.add(project);
        return next;
      }),
    [],
  );
  return (
    <Card withBorder p={0} data-testid="resources">
      <Group p="sm" justify="space-between">
        <TextInput
          size="xs"
          w={320}
          placeholder="Filter by key (Workspace/platform/…)"
          aria-label="Filter resources by key"
          value={query}
          onChange={(e) => onQuery(e.currentTarget.value)}
          data-testid="resource-filter"
        />
        <Group gap="xs">
          <Text size="xs" c="dimmed" data-testid="resource-shown">
            {list.total === undefined
              ? 'Loading…'
              : `${list.total} shown in ${list.groups.length} projects`}
          </Text>
          <Button size="compact-xs" variant="default" onClick={() => setCollapsed(new Set())}>
            Expand all
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => setCollapsed(new Set(list.groups.map(groupName)))}
          >
            Collapse all
          </Button>
        </Group>
      </Group>
      <SortHeader {...(sort ? { sort } : {})} onSort={onSort} />
      {list.error ? (
        <Text size="sm" c="red.8" px="sm" pb="sm" role="alert">
          {list.error}
        </Text>
      ) : null}
      <div
        ref={scroller}
        style={{ height: Math.min(560, layout.count * ROW_HEIGHT + 2), overflow: 'auto' }}
        data-testid="resource-scroll"
      >
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {inView.map((v) => {
            const row = layout.rowAt(v.index);
            return (
              // a plain element, translated, not top: the browser moves a layer instead of
              // laying out again, and no styled component is drawn per line per key typed
              <div
                key={v.key}
                style={{
                  ...ROW_STYLE,
                  transform: `translateY(${v.start}px)`,
                  ...(row.type === 'project'
                    ? { background: 'var(--mantine-color-default-hover)' }
                    : {}),
                }}
              >
                {row.type === 'project' ? (
                  <ProjectRow group={row.group} collapsed={row.collapsed} onToggle={toggle} />
                ) : (
                  <ResourceRow item={list.itemAt(row.offset)} />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </Card>
  );
}
