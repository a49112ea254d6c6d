import { Badge, Card, Group, Table, Text, Title } from '@mantine/core';
import type { Status } from '../api/status.js';
import { formatDuration, shortRevision } from '../lib/format.js';
import { collapseRevisions, type RevisionGroup } from '../lib/pages.js';
import { Time } from './Time.js';

const ROWS = [
  ['fetched', 'Fetched'],
  ['lastGood', 'Last good'],
  ['lastApplied', 'Last applied'],
  ['lastAttempted', 'Last attempted'],
] as const;

function RevisionRow({ group }: { group: RevisionGroup }) {
  const { rev, labels } = group;
  return (
    <Table.Tr data-testid="revision-row" data-count={labels.length}>
      <Table.Td w={360}>
        <Group gap={6} wrap="nowrap">
          <Text size="sm" c="dimmed">
            {labels.join(' · ')}
          </Text>
          {labels.length > 1 && (
            <Badge
              size="xs"
              variant="light"
              color="gray"
              style={{ flex: 'none' }}
              title={`${labels.length} revisions are this commit`}
            >
              {labels.length} ×
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td w={100} ff="monospace">
        <span title={rev?.revision}>{rev ? shortRevision(rev.revision) : '—'}</span>
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
        <Text size="sm" c="dimmed">
          {rev?.time ? <Time iso={rev.time} /> : ''}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * Where desired state comes from and which revisions were fetched, validated and applied; a
 * commit that is several of them is one row naming them all.
 */
export function SourceCard({ status }: { status: Status }) {
  const s = status.source;
  const where = s.repo ? `${s.repo} @ ${s.branch ?? 'main'} : ${s.path ?? '.'}` : (s.dir ?? '?');
  const groups = collapseRevisions(
    ROWS.map(([field, label]) => [label, status.revisions[field]] as const),
  );
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
            {status.lastRunAt ? <Time iso={status.lastRunAt} prefix="ran " /> : 'no run yet'}
            {status.nextRunInMs !== undefined && ` · next in ${formatDuration(status.nextRunInMs)}`}
          </Text>
        </Group>
      </Group>
      <Table verticalSpacing={4}>
        <Table.Tbody>
          {groups.map((g) => (
            <RevisionRow key={g.labels.join()} group={g} />
          ))}
        </Table.Tbody>
      </Table>
      {status.lastError && (
        <Text size="sm" c="red.9" mt="xs">
          {status.lastError}
        </Text>
      )}
    </Card>
  );
}
