import { Badge, Card, Code, Group, Table, Text, Title } from '@mantine/core';
import type { DiffEntry, ResourceDetail } from '../../api/resources.js';
import type { HistoryEntry } from '../../api/runs.js';
import { Link } from '../../components/router.js';
import { Time } from '../../components/Time.js';
import { formatDuration } from '../../lib/format.js';
import { diffWords, fieldName } from '../../lib/pages.js';
import { runHref } from '../../lib/route.js';

/** The field diff of the last run, each field in words: "platform has X, git says Y". */
function DiffTable({ diff }: { diff: readonly DiffEntry[] }) {
  return (
    <Card withBorder>
      <Title order={6} mb="xs">
        Differences
      </Title>
      {diff.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="diff-empty">
          No difference: the platform matches git.
        </Text>
      ) : (
        <Table withTableBorder data-testid="diff">
          <Table.Tbody>
            {diff.map((d) => (
              <Table.Tr key={d.path}>
                <Table.Td ff="monospace" w="30%" title={d.path}>
                  {fieldName(d.path)}
                </Table.Td>
                <Table.Td ff="monospace" data-testid="diff-words">
                  {diffWords(d)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** What the runs did to the resource, newest first; repeats of one action are one row. */
function History({ actions }: { actions: readonly HistoryEntry[] }) {
  return (
    <Card withBorder>
      <Title order={6} mb="xs">
        History
      </Title>
      {actions.length === 0 ? (
        <Text size="sm" c="dimmed">
          None recorded.
        </Text>
      ) : (
        <Table withTableBorder data-testid="actions">
          <Table.Tbody>
            {actions.map((a) => (
              <Table.Tr key={`${a.runId}-${a.type}`} data-testid="history-row" data-count={a.count}>
                <Table.Td w={200}>
                  <Link to={runHref(a.runId)} title={`run ${a.runId}`}>
                    <Time iso={a.at} />
                  </Link>
                  {a.count > 1 && (
                    <Text size="xs" c="dimmed">
                      {a.count} runs since <Time iso={a.since} />
                    </Text>
                  )}
                </Table.Td>
                <Table.Td w={90}>
                  <Code>{a.type}</Code>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{a.reason}</Text>
                  {a.message && (
                    <Text size="xs" c="dimmed">
                      {a.message}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td w={220}>
                  <Group gap={4}>
                    <Badge variant="light" color={a.error ? 'red' : 'gray'}>
                      {a.outcome}
                    </Badge>
                    {a.durationMs !== undefined && (
                      <Text size="xs" c="dimmed">
                        {formatDuration(a.durationMs)}
                      </Text>
                    )}
                  </Group>
                  {a.error && (
                    <Text size="xs" c="red">
                      {a.error}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** The resource's differences in words, then its history. */
export function Changes({ detail }: { detail: ResourceDetail }) {
  return (
    <>
      <DiffTable diff={detail.diff} />
      <History actions={detail.actions} />
    </>
  );
}
