import { Badge, Card, Group, Progress, Text, UnstyledButton } from '@mantine/core';
import { CONDITIONS, type Condition } from '../api/resources.js';
import type { Status } from '../api/status.js';
import { CONDITION_COLOR } from '../lib/format.js';

interface Props {
  readonly counts: Status['counts'];
  readonly active: Condition | undefined;
  onPick(condition: Condition | undefined): void;
}

/** Resources by condition, as a bar and as counts; a count filters the graph to it. */
export function SummaryBar({ counts, active, onPick }: Props) {
  const total = counts.total || 1;
  return (
    <Card withBorder data-testid="summary">
      <Group justify="space-between" mb="xs">
        <Text fw={600} data-testid="count-total">
          {counts.total} resources
        </Text>
        <Group gap="xs">
          {CONDITIONS.map((c) => (
            <UnstyledButton
              key={c}
              onClick={() => onPick(active === c ? undefined : c)}
              aria-pressed={active === c}
            >
              <Badge
                size="lg"
                color={CONDITION_COLOR[c]}
                variant={active === c ? 'filled' : 'light'}
                data-testid={`count-${c}`}
                data-count={counts[c]}
              >
                {c} {counts[c]}
              </Badge>
            </UnstyledButton>
          ))}
        </Group>
      </Group>
      <Progress.Root size="lg">
        {CONDITIONS.filter((c) => counts[c] > 0).map((c) => (
          <Progress.Section
            key={c}
            value={(counts[c] / total) * 100}
            color={CONDITION_COLOR[c]}
            aria-label={`${c}: ${counts[c]}`}
          />
        ))}
      </Progress.Root>
    </Card>
  );
}
