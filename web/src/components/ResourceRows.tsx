import { Badge, Box, Group, Text, UnstyledButton } from '@mantine/core';
import { memo } from 'react';
import { CONDITIONS, type ProjectGroup, type ResourceItem } from '../api/resources.js';
import { CONDITION_COLOR } from '../lib/format.js';
import { resourceHref } from '../lib/route.js';
import { groupName } from '../lib/rows.js';
import type { ListSort, SortField } from '../lib/sort.js';
import { linkProps } from './router.js';
import { Time } from './Time.js';

/** The widths of the list's fixed columns, shared by the header and the rows so they line up. */
const W = { kind: 130, condition: 104, reason: 120, changed: 96 } as const;
/** How much deeper each level of nesting starts. */
const INDENT = 20;
/**
 * The left edge of a resource of depth 1 (its dot): room under the header for the Project
 * column's title, so Kind, Name and the rest line up with their titles.
 */
const ROOT = 50;
/** The Project title's width: up to the Kind column (the dot, 10, and a gap, 10, past ROOT). */
const PROJECT_W = ROOT + 10;

/**
 * A project's header line. Memoized: a key typed into the filter redraws the list, and a line
 * whose group did not change is not drawn again (issue 26's filter latency).
 */
export const ProjectRow = memo(function ProjectRow(props: {
  group: ProjectGroup;
  collapsed: boolean;
  onToggle(p: string): void;
}) {
  const { group, collapsed } = props;
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
});

/** A resource's line, or a placeholder while its page is read. Memoized on the item. */
export const ResourceRow = memo(function ResourceRow({ item: r }: { item?: ResourceItem }) {
  if (!r) {
    return (
      <Text size="sm" c="dimmed" pl={ROOT} data-testid="resource-loading">
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
      <Group gap="xs" wrap="nowrap" pl={ROOT + ((r.depth ?? 1) - 1) * INDENT}>
        <Box
          w={10}
          h={10}
          style={{ borderRadius: 5, flex: 'none' }}
          bg={`${CONDITION_COLOR[r.condition]}.6`}
        />
        <Text size="xs" c="dimmed" w={W.kind} style={{ flex: 'none' }}>
          {r.kind}
        </Text>
        <Text size="sm" ff="monospace" truncate style={{ flex: 1 }}>
          {r.workspace ? `${r.workspace}/${r.name}` : r.name}
        </Text>
        <Box w={W.condition} style={{ flex: 'none' }}>
          <Badge size="sm" color={CONDITION_COLOR[r.condition]} variant="light">
            {r.condition}
          </Badge>
        </Box>
        <Text size="xs" c="dimmed" w={W.reason} truncate style={{ flex: 'none' }}>
          {r.reason}
        </Text>
        <Text size="xs" c="dimmed" w={W.changed} truncate style={{ flex: 'none' }}>
          <Time iso={r.lastTransitionTime} />
        </Text>
      </Group>
    </UnstyledButton>
  );
});

const LABEL: Readonly<Record<SortField, string>> = {
  project: 'Project',
  kind: 'Kind',
  name: 'Name',
  condition: 'Condition',
  changed: 'Last change',
};

/**
 * The list's column headers, each a button ordering the list by its column (ascending, then
 * descending, then the engine's order again); the order is the server's (`sort=`).
 */
export function SortHeader(props: { sort?: ListSort; onSort(field: SortField): void }) {
  const head = (field: SortField, w?: number) => {
    const on = props.sort?.field === field ? props.sort : undefined;
    const state = on ? (on.descending ? 'descending' : 'ascending') : undefined;
    return (
      <UnstyledButton
        onClick={() => props.onSort(field)}
        w={w}
        style={w ? { flex: 'none' } : { flex: 1 }}
        data-testid={`sort-${field}`}
        data-sort={on ? (on.descending ? 'desc' : 'asc') : 'none'}
        aria-label={`${LABEL[field]}: ${state ? `sorted ${state}` : 'sort by it'}`}
      >
        <Text size="xs" fw={on ? 700 : 500} c={on ? undefined : 'dimmed'} span>
          {LABEL[field]} {on ? (on.descending ? '↓' : '↑') : ''}
        </Text>
      </UnstyledButton>
    );
  };
  return (
    <Group gap="xs" wrap="nowrap" px="sm" pb={4} data-testid="resource-columns">
      {head('project', PROJECT_W)}
      {head('kind', W.kind)}
      {head('name')}
      {head('condition', W.condition)}
      <Text size="xs" c="dimmed" w={W.reason} style={{ flex: 'none' }}>
        Reason
      </Text>
      {head('changed', W.changed)}
    </Group>
  );
}
