import { Alert, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '../components/router.js';
import { formatDuration, shortRevision } from '../lib/format.js';
import type { ViewProps } from './types.js';

/** `/runs/:runId`: one run, its trigger, revision, result and failures. */
export function RunPage({ data, params }: ViewProps) {
  const runId = params.runId ?? '';
  const run = data.runs.find((r) => r.runId === runId);
  return (
    <Stack data-testid="run-page">
      <Group gap="xs">
        <Link to="/runs">Runs</Link>
        <Text>/</Text>
        <Title order={4} ff="monospace">
          {runId}
        </Title>
      </Group>
      {!run ? (
        <Alert color="yellow">This run is not among the last ones read.</Alert>
      ) : (
        <Group gap="md">
          <Badge>{run.result}</Badge>
          <Text size="sm">{run.trigger}</Text>
          <Text size="sm">{run.revision ? shortRevision(run.revision) : '—'}</Text>
          <Text size="sm">{formatDuration(run.durationMs)}</Text>
        </Group>
      )}
    </Stack>
  );
}
