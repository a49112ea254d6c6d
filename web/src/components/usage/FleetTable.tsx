import { Badge, Card, Group, Pagination, SegmentedControl, Table, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../../api/client.js';
import type { Fleet, UsageItem } from '../../api/usage.js';
import { CONDITION_COLOR } from '../../lib/format.js';
import { ScheduleText } from './ScheduleText.js';

const PAGE = 50;

/**
 * The compute instances git declares, a page at a time from `GET /api/v1/fleet`: power state,
 * GPUs, condition, schedule (its next transition) and the range's hours; an instance declared on with no hours billed in the
 * range is marked idle (it costs nothing, or is not running as git says).
 */
export function FleetTable({ items }: { readonly items: readonly UsageItem[] }) {
  const [power, setPower] = useState('all');
  const [page, setPage] = useState(1);
  const [fleet, setFleet] = useState<Fleet>();
  useEffect(() => {
    let live = true;
    api
      .fleet({ power: power === 'all' ? undefined : power, offset: (page - 1) * PAGE, limit: PAGE })
      .then((f) => live && setFleet(f))
      .catch(() => live && setFleet(undefined));
    return () => {
      live = false;
    };
  }, [power, page]);
  const hours = useMemo(() => {
    const m = new Map<string, number>();
    for (const i of items)
      m.set(`${i.project}/${i.instance}`, (m.get(`${i.project}/${i.instance}`) ?? 0) + i.hours);
    return m;
  }, [items]);
  if (!fleet) return null;
  return (
    <Card withBorder data-testid="fleet">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>
          Fleet: {fleet.on} on, {fleet.off} off, {fleet.gpusOn} GPUs on
        </Text>
        <SegmentedControl
          size="xs"
          aria-label="Power state"
          value={power}
          onChange={(v) => {
            setPower(v);
            setPage(1);
          }}
          data={['all', 'on', 'off']}
        />
      </Group>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Instance</Table.Th>
            <Table.Th>Profile</Table.Th>
            <Table.Th>GPUs</Table.Th>
            <Table.Th>Power (git)</Table.Th>
            <Table.Th>Schedule</Table.Th>
            <Table.Th>Condition</Table.Th>
            <Table.Th>Hours in range</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fleet.items.map((i) => {
            const h = hours.get(`${i.project}/${i.name}`) ?? 0;
            return (
              <Table.Tr key={i.key} data-testid="fleet-row" data-key={i.key}>
                <Table.Td>{`${i.project}/${i.workspace}/${i.name}`}</Table.Td>
                <Table.Td>{i.profile}</Table.Td>
                <Table.Td>{i.gpus ?? '—'}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={i.power === 'on' ? 'teal' : 'gray'}>
                    {i.power}
                  </Badge>
                  {i.power === 'on' && h === 0 && (
                    <Badge variant="light" color="orange" ml={4} data-testid="fleet-idle">
                      idle
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <ScheduleText schedule={i.schedule} />
                </Table.Td>
                <Table.Td>
                  {i.condition ? (
                    <Badge variant="light" color={CONDITION_COLOR[i.condition]}>
                      {i.condition}
                    </Badge>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td>{h.toFixed(2)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {fleet.total > PAGE && (
        <Pagination
          mt="sm"
          size="sm"
          total={Math.ceil(fleet.total / PAGE)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `page ${n}` })}
        />
      )}
    </Card>
  );
}
