import { Badge, Card, Group, Table, Text, Title } from '@mantine/core';
import type { Revision, Status } from '../api/types.js';
import { formatDuration, shortRevision, timeAgo } from '../lib/format.js';

const ROWS = [
  ['fetched', 'Fetched'],
  ['lastGood', 'Last good'],
  ['lastApplied', 'Last applied'],
  ['lastAttempted', 'Last attempted'],
] as const;

function RevisionRow({ label, rev, now }: { label: string; rev?: Revision; now: number }) {
  return (
    <Table.Tr>
      <Table.Td w={140}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Table.Td>
      <Table.Td w={100} ff="monospace">
        {rev ? shortRevision(rev.revision) : '—'}
      </Table.Td>
      <Table.Td>
        <Text size="sm" lineClamp={1}>
          {rev?.message ?? ''}
        </Text>
      </Table.Td>
      <Table.Td w={140}>
        <Text size="sm" c="dimmed">
          {rev?.author ?? ''}
        </Text>
      </Table.Td>
      <Table.Td w={110}>
        <Text size="sm" c="dimmed" title={rev?.time}>
          {rev?.time ? timeAgo(rev.time, now) : ''}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** Where desired state comes from and which revisions were fetched, validated and applied. */
export function SourceCard({ status }: { status: Status }) {
  const now = Date.now();
  const s = status.source;
  const where = s.repo ? `${s.repo} @ ${s.branch ?? 'main'} : ${s.path ?? '.'}` : (s.dir ?? '?');
  return (
    <Card withBorder data-testid="source">
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Title order={5}>Source</Title>
          <Text size="sm" ff="monospace">
            {where}
          </Text>
        </Group>
        <Group gap="xs">
          <Badge color={status.sourceReady ? 'teal' : 'red'} variant="light">
            {status.sourceReady ? 'source ready' : 'source not ready'}
          </Badge>
          {status.lastResult && (
            <Badge variant="outline" color="gray" data-testid="last-result">
              last run: {status.lastResult}
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            {status.lastRunAt ? `ran ${timeAgo(status.lastRunAt, now)}` : 'no run yet'}
            {status.nextRunInMs !== undefined && ` · next in ${formatDuration(status.nextRunInMs)}`}
          </Text>
        </Group>
      </Group>
      <Table verticalSpacing={4}>
        <Table.Tbody>
          {ROWS.map(([field, label]) => (
            <RevisionRow key={field} label={label} rev={status.revisions[field]} now={now} />
          ))}
        </Table.Tbody>
      </Table>
      {status.lastError && (
        <Text size="sm" c="red" mt="xs">
          {status.lastError}
        </Text>
      )}
    </Card>
  );
}
