import { Badge, Card, Code, Table, Text } from '@mantine/core';
import type { RunItem } from '../api/runs.js';
import { formatDuration, shortRevision } from '../lib/format.js';
import { runHref } from '../lib/route.js';
import { Link } from './router.js';
import { Time } from './Time.js';

/** The colour of each run result (Mantine palette names). */
export const RESULT_COLOR: Readonly<Record<string, string>> = {
  succeeded: 'teal',
  failed: 'red',
  invalid: 'red',
  'fetch-failed': 'red',
  interrupted: 'yellow',
  planned: 'blue',
};

/** The last runs, newest first: trigger, duration, counts by action, and each failure; each a link to its page. */
export function RunHistory({ runs }: { runs: readonly RunItem[] }) {
  if (runs.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        No run yet.
      </Text>
    );
  }
  return (
    <Card withBorder p={0}>
      <Table striped data-testid="runs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Started</Table.Th>
            <Table.Th>Trigger</Table.Th>
            <Table.Th>Revision</Table.Th>
            <Table.Th>Result</Table.Th>
            <Table.Th>Duration</Table.Th>
            <Table.Th>create / update / delete / other</Table.Th>
            <Table.Th>Failed / skipped</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.map((r) => (
            <Table.Tr key={r.runId} data-testid="run-row">
              <Table.Td>
                <Link to={runHref(r.runId)} data-testid="run-link" title={`run ${r.runId}`}>
                  <Time iso={r.startedAt} />
                </Link>
              </Table.Td>
              <Table.Td>{r.trigger}</Table.Td>
              <Table.Td>{r.revision ? <Code>{shortRevision(r.revision)}</Code> : '—'}</Table.Td>
              <Table.Td>
                <Badge color={RESULT_COLOR[r.result] ?? 'gray'} variant="light">
                  {r.result}
                </Badge>
              </Table.Td>
              <Table.Td>{formatDuration(r.durationMs)}</Table.Td>
              <Table.Td>
                {r.counts.create} / {r.counts.update} / {r.counts.delete} / {r.counts.other}
              </Table.Td>
              <Table.Td>
                {r.counts.failed} / {r.counts.skipped}
                {r.failures.map((f) => (
                  <Text key={f.key} size="xs" c="red.9">
                    {f.key}: {f.error}
                  </Text>
                ))}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
