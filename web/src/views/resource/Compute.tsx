import { Badge, Card, Group, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../../api/client.js';
import type { ComputeView, ResourceItem } from '../../api/types.js';

/** GPU-hours of one instance this month, from `/api/v1/usage`; undefined until read or unknown. */
function useGpuHours(resource: ResourceItem): number | undefined {
  const [hours, setHours] = useState<number>();
  useEffect(() => {
    let current = true;
    api.usage().then(
      ({ items }) => {
        const mine = items.filter(
          (u) => u.instance === resource.name && (!u.project || u.project === resource.project),
        );
        if (current && mine.length > 0) {
          setHours(mine.reduce((n, u) => n + (u.gpuHours ?? 0), 0));
        }
      },
      () => {}, // usage is extra: the page stands without it
    );
    return () => {
      current = false;
    };
  }, [resource.name, resource.project]);
  return hours;
}

/**
 * A compute instance's power state, size and GPUs, and its GPU-hours this month. Cost needs the
 * price file, which the controller does not read: the usage view adds it where it has one.
 */
export function Compute({ resource, compute }: { resource: ResourceItem; compute: ComputeView }) {
  const gpuHours = useGpuHours(resource);
  return (
    <Card withBorder data-testid="compute">
      <Group gap="lg">
        <Title order={6}>Compute</Title>
        {compute.powerState && (
          <Badge color={compute.powerState === 'on' ? 'teal' : 'gray'} data-testid="power-state">
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
        {gpuHours !== undefined && (
          <Text size="sm" data-testid="gpu-hours">
            {Math.round(gpuHours * 100) / 100} GPU-h this month
          </Text>
        )}
      </Group>
    </Card>
  );
}
