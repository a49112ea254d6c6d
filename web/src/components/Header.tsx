import { Badge, Button, Group, Text, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client.js';
import type { Status } from '../api/types.js';

interface Props {
  readonly status: Status | undefined;
  readonly live: 'connecting' | 'stream' | 'polling';
  onChanged(): void;
  onSignOut(): void;
}

/** Title, the replica's role and mode, and the page's actions: reconcile now, suspend/resume. */
export function Header({ status, live, onChanged, onSignOut }: Props) {
  const [busy, setBusy] = useState<string>();
  const [note, setNote] = useState<string>();
  const act = (name: string, f: () => Promise<unknown>, done: string) => async () => {
    setBusy(name);
    setNote(undefined);
    try {
      await f();
      setNote(done);
      onChanged();
    } catch (err) {
      setNote(`${name} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Title order={4}>platctl</Title>
        {status && (
          <Badge variant="light" color={status.role === 'leader' ? 'teal' : 'gray'}>
            {status.role}
          </Badge>
        )}
        {status?.suspended && (
          <Badge color="gray" data-testid="suspended-badge">
            suspended
          </Badge>
        )}
        {status?.dryRun && <Badge color="yellow">dry-run</Badge>}
        <Tooltip label={live === 'stream' ? 'live: event stream' : `live: ${live}`}>
          <Badge variant="dot" color={live === 'stream' ? 'teal' : 'yellow'} data-testid="live">
            {live}
          </Badge>
        </Tooltip>
      </Group>
      <Group gap="xs" wrap="nowrap">
        {note && (
          <Text size="sm" c="dimmed" data-testid="action-note">
            {note}
          </Text>
        )}
        <Button
          size="xs"
          onClick={act('reconcile', api.reconcile, 'reconcile requested')}
          loading={busy === 'reconcile'}
          data-testid="reconcile"
        >
          Reconcile now
        </Button>
        {status?.suspended ? (
          <Button
            size="xs"
            variant="light"
            onClick={act('resume', api.resume, 'resumed')}
            loading={busy === 'resume'}
            data-testid="resume"
          >
            Resume
          </Button>
        ) : (
          <Button
            size="xs"
            variant="light"
            color="gray"
            onClick={act('suspend', api.suspend, 'suspended')}
            loading={busy === 'suspend'}
            data-testid="suspend"
          >
            Suspend
          </Button>
        )}
        <Button size="xs" variant="subtle" color="gray" onClick={onSignOut}>
          Sign out
        </Button>
      </Group>
    </Group>
  );
}
