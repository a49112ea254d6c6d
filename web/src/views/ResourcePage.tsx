import { Alert, Badge, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import type { ResourceDetail } from '../api/resources.js';
import { Link } from '../components/router.js';
import { Time } from '../components/Time.js';
import { CONDITION_COLOR } from '../lib/format.js';
import { Changes } from './resource/Changes.js';
import { Compute } from './resource/Compute.js';
import { Documents } from './resource/Documents.js';
import { PowerActions } from './resource/PowerActions.js';
import { ResourceActions } from './resource/ResourceActions.js';
import type { ViewProps } from './types.js';

/**
 * `/resources/:key`: one resource: its condition, its actions, git's document beside the
 * platform's with the differences marked and worded, compute and GPUs, and its history. Read
 * again whenever the lists are (a run ended, the status changed).
 */
export function ResourcePage({ data, params }: ViewProps) {
  const resourceKey = params.key ?? '';
  const { generation, status } = data;
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
  const r = detail?.resource.key === resourceKey ? detail.resource : undefined;
  return (
    <Stack>
      <Group gap="xs">
        <Link to="/">Resources</Link>
        <Text aria-hidden>/</Text>
        <Title order={4} ff="monospace" data-testid="resource-key">
          {resourceKey}
        </Title>
      </Group>
      {error && <Alert color="red">{error}</Alert>}
      {!r && !error && <Loader size="sm" />}
      {r && detail && (
        <Stack data-testid="resource-detail">
          <Group justify="space-between">
            <Group gap="xs">
              <Badge color={CONDITION_COLOR[r.condition]} data-testid="detail-condition">
                {r.condition}
              </Badge>
              <Text size="sm">{r.reason}</Text>
              <Text size="sm" c="dimmed">
                <Time iso={r.lastTransitionTime} prefix="since " />
              </Text>
            </Group>
            <ResourceActions
              resource={r}
              {...(status ? { status } : {})}
              onChanged={data.refresh}
            />
          </Group>
          {r.message && <Text size="sm">{r.message}</Text>}
          {detail.power && (
            <PowerActions resourceKey={r.key} offer={detail.power} onChanged={data.refresh} />
          )}
          {detail.compute && (
            <Compute resource={r} compute={detail.compute} schedule={detail.schedule} />
          )}
          <Documents detail={detail} {...(status ? { status } : {})} />
          <Changes detail={detail} />
        </Stack>
      )}
    </Stack>
  );
}
