import { Badge, Group, Text } from '@mantine/core';
import type { InstanceSchedule } from '../../api/resources.js';
import { Time } from '../Time.js';

const WHY = { period: 'in a period', outside: 'outside its periods', 'keep-on': 'kept on' };

/**
 * A scheduled instance's PowerSchedule, what it wants now and its next transition (`office-hours:
 * on, off in 3 h`, the local time on the schedule's wall clock beside it); `—` when unscheduled.
 */
export function ScheduleText({ schedule }: { readonly schedule: InstanceSchedule | undefined }) {
  if (!schedule) return <span>—</span>;
  const next = schedule.next[0];
  return (
    <Group gap={4} wrap="nowrap" data-testid="schedule">
      <Text size="sm" title={`${schedule.schedule}, ${schedule.timeZone}`}>
        {schedule.schedule.replace(/^PowerSchedule\//, '')}
      </Text>
      <Badge
        variant="light"
        color={schedule.state === 'on' ? 'teal' : 'gray'}
        title={WHY[schedule.why]}
      >
        {schedule.state}
      </Badge>
      {next && (
        <Text size="sm" data-testid="schedule-next">
          {next.state} <Time iso={next.at} ahead />{' '}
          <Text span size="xs" c="dimmed">
            ({next.local})
          </Text>
        </Text>
      )}
    </Group>
  );
}
