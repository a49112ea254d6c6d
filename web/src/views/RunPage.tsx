import {
  Alert,
  Badge,
  Box,
  Card,
  Code,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import type { RunAction, RunDetail } from '../api/runs.js';
import { RESULT_COLOR } from '../components/RunHistory.js';
import { Link } from '../components/router.js';
import { Time } from '../components/Time.js';
import { formatDuration, shortRevision } from '../lib/format.js';
import { barOf } from '../lib/pages.js';
import { resourceHref } from '../lib/route.js';
import type { ViewProps } from './types.js';

const OUTCOME_COLOR: Readonly<Record<string, string>> = {
  succeeded: 'teal',
  failed: 'red',
  skipped: 'yellow',
  'not-started': 'gray',
  planned: 'blue',
};

/** One action's row: its resource, what and why, when it started, how long, how it ended. */
function ActionRow({ run, a }: { run: RunDetail; a: RunAction }) {
  const bar = barOf(run, a);
  return (
    <Table.Tr data-testid="run-action" data-outcome={a.outcome}>
      <Table.Td>
        <Link to={resourceHref(a.key)} ff="monospace" size="sm">
          {a.key}
        </Link>
      </Table.Td>
      <Table.Td>
        <Code>{a.type}</Code>{' '}
        <Text span size="sm">
          {a.reason}
        </Text>
        {a.message && (
          <Text size="xs" c="dimmed">
            {a.message}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{a.startedAt ? <Time iso={a.startedAt} /> : '—'}</Table.Td>
      <Table.Td>{a.durationMs !== undefined ? formatDuration(a.durationMs) : '—'}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={OUTCOME_COLOR[a.outcome] ?? 'gray'}>
          {a.outcome}
        </Badge>
        {a.error && (
          <Text size="xs" c="red" data-testid="run-action-error">
            {a.error}
          </Text>
        )}
      </Table.Td>
      <Table.Td w="25%">
        {bar && (
          <Box
            pos="relative"
            h={10}
            bg="var(--mantine-color-default-border)"
            style={{ borderRadius: 2 }}
          >
            <Box
              data-testid="timeline-bar"
              pos="absolute"
              top={0}
              h={10}
              left={`${bar.offset}%`}
              w={`${bar.width}%`}
              bg={`${OUTCOME_COLOR[a.outcome] ?? 'gray'}.6`}
              style={{ borderRadius: 2 }}
              title={`${a.key}: ${formatDuration(a.durationMs ?? 0)}`}
            />
          </Box>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * `/runs/:runId`: one run: trigger, revision, result, its plan as the actions it held (what and
 * why), each with start, duration, outcome and error, on a timeline of the run.
 */
export function RunPage({ data, params }: ViewProps) {
  const runId = params.runId ?? '';
  const [run, setRun] = useState<RunDetail>();
  const [error, setError] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a run that ends meanwhile is read again
  useEffect(() => {
    let current = true;
    api.run(runId).then(
      (r) => {
        if (!current) return;
        setRun(r);
        setError(undefined);
      },
      (err: unknown) => current && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      current = false;
    };
  }, [runId, data.generation]);
  const r = run?.runId === runId ? run : undefined;
  return (
    <Stack data-testid="run-page">
      <Group gap="xs">
        <Link to="/runs">Runs</Link>
        <Text aria-hidden>/</Text>
        <Title order={4} ff="monospace">
          {runId}
        </Title>
      </Group>
      {error && <Alert color="red">{error}</Alert>}
      {!r && !error && <Loader size="sm" />}
      {r && (
        <>
          <Card withBorder data-testid="run-summary">
            <Group gap="lg">
              <Badge color={RESULT_COLOR[r.result] ?? 'gray'} data-testid="run-result">
                {r.result}
              </Badge>
              <Text size="sm">trigger: {r.trigger}</Text>
              <Text size="sm">
                revision:{' '}
                {r.revision ? <Code title={r.revision}>{shortRevision(r.revision)}</Code> : '—'}
              </Text>
              <Text size="sm">
                started <Time iso={r.startedAt} />
              </Text>
              <Text size="sm">took {formatDuration(r.durationMs)}</Text>
              <Text size="sm">
                {r.counts.create} create · {r.counts.update} update · {r.counts.delete} delete ·{' '}
                {r.counts.other} other · {r.counts.failed} failed · {r.counts.skipped} skipped
              </Text>
            </Group>
            {r.failures
              .filter((f) => f.key === '*')
              .map((f) => (
                <Text key={f.error} size="sm" c="red" mt="xs">
                  {f.error}
                </Text>
              ))}
          </Card>
          <Card withBorder p={0}>
            {r.actions.length === 0 ? (
              <Text size="sm" c="dimmed" p="sm" data-testid="run-no-actions">
                Nothing to do: every resource was as git says.
              </Text>
            ) : (
              <Table striped data-testid="run-actions">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Resource</Table.Th>
                    <Table.Th>Action and why</Table.Th>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>Took</Table.Th>
                    <Table.Th>Outcome</Table.Th>
                    <Table.Th>Timeline</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {r.actions.map((a) => (
                    <ActionRow key={`${a.key}-${a.type}`} run={r} a={a} />
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
        </>
      )}
    </Stack>
  );
}
