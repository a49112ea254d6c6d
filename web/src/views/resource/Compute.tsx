import { Badge, Card, Group, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../../api/client.js';
import type { ComputeView, InstanceSchedule, ResourceItem } from '../../api/resources.js';
import { ScheduleText } from '../../components/usage/ScheduleText.js';
import { money } from '../../lib/cost.js';

/** One instance's usage this month: GPU-hours, and cost when the controller has `--prices`. */
interface MonthUsage {
  readonly gpuHours: number;
  /** Undefined when no line of the instance is priced. */
  readonly cost?: number;
  readonly currency?: string;
}

/** The usage of one instance this month, from `/api/v1/usage`; undefined until read or unknown. */
function useMonthUsage(resource: ResourceItem): MonthUsage | undefined {
  const [usage, setUsage] = useState<MonthUsage>();
  useEffect(() => {
    let current = true;
    api.usage().then(
      ({ items, currency }) => {
        const mine = items.filter(
          (u) => u.instance === resource.name && (!u.project || u.project === resource.project),
        );
        if (!current || mine.length === 0) return;
        const priced = mine.filter((u) => u.cost !== undefined);
        setUsage({
          gpuHours: mine.reduce((n, u) => n + (u.gpuHours ?? 0), 0),
          ...(priced.length > 0 ? { cost: priced.reduce((n, u) => n + (u.cost ?? 0), 0) } : {}),
          ...(currency ? { currency } : {}),
        });
      },
      () => {}, // usage is extra: the page stands without it
    );
    return () => {
      current = false;
    };
  }, [resource.name, resource.project]);
  return usage;
}

/**
 * A compute instance's power state, size and GPUs, its PowerSchedule and next transition, and
 * its GPU-hours this month, with their cost when the controller was started with `--prices`.
 */
export function Compute({
  resource,
  compute,
  schedule,
}: {
  resource: ResourceItem;
  compute: ComputeView;
  schedule?: InstanceSchedule | undefined;
}) {
  const usage = useMonthUsage(resource);
  return (
    <Card withBorder data-testid="compute">
      <Group gap="lg">
        <Title order={6}>Compute</Title>
        {compute.powerState && (
          // .9 and .7: white on Mantine's filled teal.6 is 3.9:1 (gray.6 3.3:1), under WCAG AA's 4.5:1
          <Badge
            color={compute.powerState === 'on' ? 'teal.9' : 'gray.7'}
            data-testid="power-state"
          >
            power {compute.powerState}
          </Badge>
        )}
        {compute.profile && (
          <Text size="sm">
            {compute.profile}
            {compute.units > 1 ? ` × ${compute.units}` : ''}
          </Text>
        )}
        <Text size="sm" data-testid="gpu-count">
          {compute.gpus !== undefined ? `${compute.gpus} GPUs` : 'GPUs unknown for this profile'}
        </Text>
        {usage && (
          <Text size="sm" data-testid="gpu-hours">
            {Math.round(usage.gpuHours * 100) / 100} GPU-h this month
          </Text>
        )}
        {usage?.cost !== undefined && (
          <Text size="sm" data-testid="month-cost">
            {money(usage.cost, usage.currency)} this month
          </Text>
        )}
        {schedule && (
          <Group gap={4} data-testid="compute-schedule">
            <Text size="sm" c="dimmed">
              schedule
            </Text>
            <ScheduleText schedule={schedule} />
          </Group>
        )}
      </Group>
    </Card>
  );
}
