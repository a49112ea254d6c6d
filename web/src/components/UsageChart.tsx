import { BarChart } from '@mantine/charts';
import { Card, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import type { UsageItem } from '../api/usage.js';
import { usageByProject } from '../lib/usage.js';

const PALETTE = [
  'blue.6',
  'teal.6',
  'grape.6',
  'orange.6',
  'cyan.6',
  'pink.6',
  'lime.6',
  'indigo.6',
];

/**
 * Compute usage per project over the usage view's range (from the platform's billing endpoints,
 * through the controller's `/api/v1/usage`): a bar per project stacked by profile, and the
 * numbers.
 */
export function UsageChart({ items }: { readonly items: readonly UsageItem[] }) {
  const { rows, profiles } = useMemo(() => usageByProject(items), [items]);
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="usage-empty">
        No compute usage recorded in this range.
      </Text>
    );
  }
  return (
    <Card withBorder data-testid="usage">
      <Stack>
        <Text fw={600}>Compute hours per project, by profile</Text>
        <BarChart
          h={Math.max(160, rows.length * 48)}
          data={rows}
          dataKey="project"
          orientation="vertical"
          type="stacked"
          withLegend
          valueFormatter={(v) => `${v} h`}
          yAxisProps={{ width: 140 }}
          barProps={{ isAnimationActive: false }}
          series={profiles.map((p, i) => ({ name: p, color: PALETTE[i % PALETTE.length]! }))}
        />
        <Table data-testid="usage-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Project</Table.Th>
              <Table.Th>Hours</Table.Th>
              <Table.Th>GPU-hours</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.project} data-testid="usage-row" data-project={r.project}>
                <Table.Td>{r.project}</Table.Td>
                <Table.Td>{r.total.toFixed(2)}</Table.Td>
                <Table.Td>{r.gpuHours.toFixed(2)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
