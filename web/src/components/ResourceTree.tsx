import { Badge, Box, Button, Card, Group, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { CONDITIONS, type Condition, type ResourceItem } from '../api/types.js';
import { CONDITION_COLOR } from '../lib/format.js';
import { resourceHref } from '../lib/route.js';
import { groupName, layoutRows, type Row } from '../lib/rows.js';
import { linkProps } from './router.js';
import { useResourcePages } from './useResourcePages.js';

interface Props {
  readonly filter: Condition | undefined;
  /** The key filter's text (kept in the URL by the view). */
  readonly query: string;
  onQuery(text: string): void;
  /** Bumped when the status changed: the list is read again. */
  readonly generation: number;
}

const ROW_HEIGHT = 34;

/**
 * The resource list: one collapsible group per project, resources nested under their workspace
 * or cluster, all in engine order, coloured by condition with the reason beside it. The control
 * API filters, orders and pages it (`view=tree`); the page reads the first page with the
 * projects' counts, then the pages the rows in view fall on, so 100,000 resources cost the
 * browser a few pages. Each resource is a link to its page.
 */
export function ResourceTree({ filter, query, onQuery, generation }: Props) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const list = useResourcePages({ ...(filter ? { condition: filter } : {}), q: query }, generation);
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
  const toggle = (project: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (!next.delete(project)) next.add(project);
      return next;
    });
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
              <Box
                key={v.key}
                // translate, not top: the browser moves a layer instead of laying out again
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${v.start}px)`,
                }}
                py={4}
                px="sm"
                bg={row.type === 'project' ? 'var(--mantine-color-default-hover)' : undefined}
              >
                {row.type === 'project' ? (
                  <ProjectRow row={row} onToggle={toggle} />
                ) : (
                  <ResourceRow item={list.itemAt(row.offset)} />
                )}
              </Box>
            );
          })}
        </div>
      </div>
    </Card>
  );
}

function ProjectRow(props: { row: Extract<Row, { type: 'project' }>; onToggle(p: string): void }) {
  const { group, collapsed } = props.row;
  const name = groupName(group);
  return (
    <UnstyledButton
      w="100%"
      onClick={() => props.onToggle(name)}
      aria-expanded={!collapsed}
      data-testid={`project-${name}`}
    >
      <Group gap="xs" wrap="nowrap">
        <Text fw={600} w={16}>
          {collapsed ? '▸' : '▾'}
        </Text>
        <Text fw={600}>{name}</Text>
        <Text size="xs" c="dimmed">
          {group.total}
        </Text>
        {CONDITIONS.filter((c) => (group.counts[c] ?? 0) > 0).map((c) => (
          <Badge key={c} size="xs" variant="light" color={CONDITION_COLOR[c]}>
            {c} {group.counts[c]}
          </Badge>
        ))}
      </Group>
    </UnstyledButton>
  );
}

function ResourceRow({ item: r }: { item: ResourceItem | undefined }) {
  if (!r) {
    return (
      <Text size="sm" c="dimmed" pl={20} data-testid="resource-loading">
        …
      </Text>
    );
  }
  return (
    <UnstyledButton
      component="a"
      w="100%"
      display="block"
      {...linkProps(resourceHref(r.key))}
      data-testid="resource-row"
      data-key={r.key}
      data-condition={r.condition}
      title={r.message ?? r.reason}
    >
      <Group gap="xs" wrap="nowrap" pl={(r.depth ?? 1) * 20}>
        <Box
          w={10}
          h={10}
          style={{ borderRadius: 5, flex: 'none' }}
          bg={`${CONDITION_COLOR[r.condition]}.6`}
        />
        <Text size="xs" c="dimmed" w={130} style={{ flex: 'none' }}>
          {r.kind}
        </Text>
        <Text size="sm" ff="monospace" truncate style={{ flex: 1 }}>
          {r.workspace ? `${r.workspace}/${r.name}` : r.name}
        </Text>
        <Badge
          size="sm"
          color={CONDITION_COLOR[r.condition]}
          variant="light"
          style={{ flex: 'none' }}
        >
          {r.condition}
        </Badge>
        <Text size="xs" c="dimmed" w={120} truncate style={{ flex: 'none' }}>
          {r.reason}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
