import { BarChart } from '@mantine/charts';
import {
  Alert,
  Card,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../../api/client.js';
import type { UsageDay, UsageItem } from '../../api/usage.js';
import {
  money,
  monthSoFar,
  rangeWindow,
  type UsageGroupBy,
  usageGroups,
  usageTotals,
} from '../../lib/cost.js';
import { UsageChart } from '../UsageChart.js';
import { FleetTable } from './FleetTable.js';

interface Read {
  readonly items: readonly UsageItem[];
  readonly days: readonly UsageDay[];
  readonly currency?: string;
}

/**
 * Usage and cost over a date range (the month so far by default): totals, the daily trend, a
 * table per project, profile or instance with GPU-hours and cost (with the controller's
 * `--prices`), the chart per project, and the fleet of instances.
 */
export function UsageView() {
  const [range, setRange] = useState(() => monthSoFar(Date.now()));
  const [by, setBy] = useState<UsageGroupBy>('project');
  const [read, setRead] = useState<Read>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!range.from || !range.to || range.from > range.to) return;
    let live = true;
    const w = rangeWindow(range.from, range.to);
    Promise.all([api.usage(w), api.usageDaily(w)]).then(
      ([u, d]) =>
        live &&
        setRead({ items: u.items, days: d.days, ...(u.currency ? { currency: u.currency } : {}) }),
      (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [range]);
  const groups = useMemo(() => usageGroups(read?.items ?? [], by), [read, by]);
  const totals = useMemo(() => usageTotals(read?.items ?? []), [read]);
  const hasCost = read?.currency !== undefined;
  return (
    <Stack>
      <Card withBorder data-testid="usage-view">
        <Group justify="space-between" align="end">
          <Group gap="xs" align="end">
            <TextInput
              type="date"
              label="From"
              size="xs"
              value={range.from}
              onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
              data-testid="usage-from"
            />
            <TextInput
              type="date"
              label="To"
              size="xs"
              value={range.to}
              onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
              data-testid="usage-to"
            />
          </Group>
          <Group gap="lg" data-testid="usage-totals">
            <Text size="sm">{totals.hours.toFixed(2)} h</Text>
            <Text size="sm">{totals.gpuHours.toFixed(2)} GPU-h</Text>
            <Text size="sm" fw={600}>
              {hasCost ? money(totals.cost ?? 0, read?.currency) : 'no price file'}
            </Text>
          </Group>
        </Group>
      </Card>
      {error && <Alert color="red">Usage could not be read: {error}</Alert>}
      {!read && !error && <Loader size="sm" />}
      {read && (
        <>
          <Card withBorder>
            <Text fw={600} mb="xs">
              GPU-hours per day
            </Text>
            <BarChart
              h={180}
              data={read.days.map((d) => ({ ...d, day: d.day.slice(5) }))}
              dataKey="day"
              series={[{ name: 'gpuHours', label: 'GPU-hours', color: 'indigo.8' }]}
              barProps={{ isAnimationActive: false }}
              valueFormatter={(v) => `${v}`}
              data-testid="usage-trend"
            />
          </Card>
          <Card withBorder>
            <Group justify="space-between" mb="xs">
              <Text fw={600}>Usage by {by}</Text>
              <SegmentedControl
                size="xs"
                aria-label="Group usage by"
                value={by}
                onChange={(v) => setBy(v as UsageGroupBy)}
                data={['project', 'profile', 'instance']}
              />
            </Group>
            <Table data-testid="usage-by">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{by}</Table.Th>
                  <Table.Th>Hours</Table.Th>
                  <Table.Th>GPU-hours</Table.Th>
                  <Table.Th>Cost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {groups.slice(0, 200).map((g) => (
                  <Table.Tr key={g.key} data-testid="usage-group-row" data-key={g.key}>
                    <Table.Td>{g.key}</Table.Td>
                    <Table.Td>{g.hours.toFixed(2)}</Table.Td>
                    <Table.Td>{g.gpuHours.toFixed(2)}</Table.Td>
                    <Table.Td>{money(g.cost, read.currency)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
          <UsageChart items={read.items} />
          <FleetTable items={read.items} />
        </>
      )}
    </Stack>
  );
}
