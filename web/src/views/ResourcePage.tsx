import { Alert, Badge, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import type { ResourceDetail } from '../api/types.js';
import { Link } from '../components/router.js';
import { CONDITION_COLOR, showValue } from '../lib/format.js';
import type { ViewProps } from './types.js';

/**
 * `/resources/:key`: one resource, its condition, desired vs live field by field (secrets
 * masked), last actions; read again whenever the lists are.
 */
export function ResourcePage({ data, params }: ViewProps) {
  const resourceKey = params.key ?? '';
  const { generation } = data;
  const [detail, setDetail] = useState<ResourceDetail>();
  const [error, setError] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation re-reads the resource
  useEffect(() => {
    let current = true;
    api.resource(resourceKey).then(
      (d) => {
        if (!current) return;
        setDetail(d);
        setError(undefined);
      },
      (err: unknown) => current && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      current = false;
    };
  }, [resourceKey, generation]);
  const r = detail?.resource.key === resourceKey ? detail?.resource : undefined;
  return (
    <Stack>
      <Group gap="xs">
        <Link to="/">Resources</Link>
        <Text>/</Text>
        <Title order={4} ff="monospace" data-testid="resource-key">
          {resourceKey}
        </Title>
      </Group>
      {error && <Alert color="red">{error}</Alert>}
      {!r && !error && <Loader size="sm" />}
      {r && detail && (
        <Stack data-testid="resource-detail">
          <Group gap="xs">
            <Badge color={CONDITION_COLOR[r.condition]} data-testid="detail-condition">
              {r.condition}
            </Badge>
            <Text size="sm">{r.reason}</Text>
            <Text size="sm" c="dimmed">
              since {r.lastTransitionTime}
            </Text>
          </Group>
          {r.message && <Text size="sm">{r.message}</Text>}
          <Title order={6}>Desired vs live</Title>
          {detail.diff.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="diff-empty">
              No difference: live matches git.
            </Text>
          ) : (
            <Table striped withTableBorder data-testid="diff">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Field</Table.Th>
                  <Table.Th>Git (desired)</Table.Th>
                  <Table.Th>Platform (live)</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {detail.diff.map((d) => (
                  <Table.Tr key={d.path}>
                    <Table.Td ff="monospace">
                      {d.path}{' '}
                      <Badge size="xs" variant="outline">
                        {d.op}
                      </Badge>
                    </Table.Td>
                    <Table.Td ff="monospace" c="teal.8">
                      {showValue(d.desired)}
                    </Table.Td>
                    <Table.Td ff="monospace" c="red.8">
                      {showValue(d.live)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Title order={6}>Last actions</Title>
          {detail.actions.length === 0 ? (
            <Text size="sm" c="dimmed">
              None recorded.
            </Text>
          ) : (
            <Table withTableBorder data-testid="actions">
              <Table.Tbody>
                {detail.actions.map((a) => (
                  <Table.Tr key={`${a.runId}-${a.type}-${a.at}`}>
                    <Table.Td>{a.at}</Table.Td>
                    <Table.Td>
                      <Code>{a.type}</Code>
                    </Table.Td>
                    <Table.Td>{a.reason}</Table.Td>
                    <Table.Td c={a.error ? 'red' : undefined}>{a.error ?? a.outcome}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {detail.desired !== undefined && (
            <>
              <Title order={6}>Desired (git)</Title>
              <Code block>{JSON.stringify(detail.desired, null, 2)}</Code>
            </>
          )}
          {detail.live !== undefined && (
            <>
              <Title order={6}>Live (platform, secrets masked)</Title>
              <Code block>{JSON.stringify(detail.live, null, 2)}</Code>
            </>
          )}
        </Stack>
      )}
    </Stack>
  );
}
