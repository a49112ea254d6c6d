import { Badge, Box, Button, Card, Group, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { CONDITIONS, type Condition, type ResourceItem } from '../api/types.js';
import { CONDITION_COLOR } from '../lib/format.js';
import { resourceHref } from '../lib/route.js';
import { buildProjects, flatten, type ProjectGroup, type Row } from '../lib/tree.js';
import { linkProps } from './router.js';

interface Props {
  readonly resources: readonly ResourceItem[];
  readonly filter: Condition | undefined;
  /** The key filter's text (kept in the URL by the view). */
  readonly query: string;
  onQuery(text: string): void;
}

const ROW_HEIGHT = 34;

/**
 * The resource graph: one collapsible group per project, resources nested under their workspace
 * or cluster, all in engine order, coloured by condition with the reason beside it. Only the
 * rows in view are in the DOM, so 10,000 resources scroll as smoothly as 10. Each resource is a
 * link to its page.
 */
export function ResourceTree({ resources, filter, query, onQuery }: Props) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const shown = resources.filter(
      (r) => (!filter || r.condition === filter) && (!q || r.key.toLowerCase().includes(q)),
    );
    return buildProjects(shown);
  }, [resources, filter, query]);
  const rows = useMemo(() => flatten(groups, collapsed), [groups, collapsed]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
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
          value={query}
          onChange={(e) => onQuery(e.currentTarget.value)}
          data-testid="resource-filter"
        />
        <Group gap="xs">
          <Text size="xs" c="dimmed" data-testid="resource-shown">
            {groups.reduce((n, g) => n + sum(g), 0)} shown in {groups.length} projects
          </Text>
          <Button size="compact-xs" variant="default" onClick={() => setCollapsed(new Set())}>
            Expand all
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => setCollapsed(new Set(groups.map((g) => g.project)))}
          >
            Collapse all
          </Button>
        </Group>
      </Group>
      <div
        ref={scroller}
        style={{ height: Math.min(560, rows.length * ROW_HEIGHT + 2), overflow: 'auto' }}
        data-testid="resource-scroll"
      >
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => (
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
              bg={
                rows[v.index]?.type === 'project' ? 'var(--mantine-color-default-hover)' : undefined
              }
            >
              <RowView row={rows[v.index]!} onToggle={toggle} />
            </Box>
          ))}
        </div>
      </div>
    </Card>
  );
}

const sum = (g: ProjectGroup) => CONDITIONS.reduce((n, c) => n + g.counts[c], 0);

function RowView(props: { row: Row; onToggle(p: string): void }) {
  const { row } = props;
  if (row.type === 'project') {
    const g = row.group;
    return (
      <UnstyledButton
        w="100%"
        onClick={() => props.onToggle(g.project)}
        aria-expanded={!row.collapsed}
        data-testid={`project-${g.project}`}
      >
        <Group gap="xs" wrap="nowrap">
          <Text fw={600} w={16}>
            {row.collapsed ? '▸' : '▾'}
          </Text>
          <Text fw={600}>{g.project}</Text>
          <Text size="xs" c="dimmed">
            {sum(g)}
          </Text>
          {CONDITIONS.filter((c) => g.counts[c] > 0).map((c) => (
            <Badge key={c} size="xs" variant="light" color={CONDITION_COLOR[c]}>
              {c} {g.counts[c]}
            </Badge>
          ))}
        </Group>
      </UnstyledButton>
    );
  }
  const r = row.item;
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
      <Group gap="xs" wrap="nowrap" pl={row.depth * 20}>
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
