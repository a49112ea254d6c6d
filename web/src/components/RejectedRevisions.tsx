import { Badge, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import type { RejectedRevision } from '../api/status.js';
import { diagnosticAt, shortRevision } from '../lib/format.js';
import { Time } from './Time.js';

/** Revisions that did not validate, each with its diagnostics at `file:line:col`. */
export function RejectedRevisions({ rejected }: { rejected: readonly RejectedRevision[] }) {
  return (
    <Card withBorder data-testid="rejected">
      <Title order={5} mb="xs">
        Rejected revisions
      </Title>
      <Stack gap="sm">
        {rejected.map((r) => (
          <div key={r.revision}>
            <Group gap="xs">
              <Code>{shortRevision(r.revision)}</Code>
              <Text size="xs" c="dimmed">
                <Time iso={r.at} />
              </Text>
            </Group>
            {r.diagnostics.map((d) => (
              <Group key={`${diagnosticAt(d)} ${d.message}`} gap="xs" wrap="nowrap" pl="md">
                <Badge size="xs" color={d.severity === 'error' ? 'red' : 'yellow'}>
                  {d.severity}
                </Badge>
                <Text size="sm" ff="monospace">
                  {diagnosticAt(d)}
                </Text>
                <Text size="sm">{d.message}</Text>
              </Group>
            ))}
          </div>
        ))}
      </Stack>
    </Card>
  );
}
