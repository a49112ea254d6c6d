import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Text,
  Title,
  Tooltip,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client.js';
import type { Status } from '../api/status.js';
import { Link } from './router.js';

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
  // Mantine keeps the choice in localStorage: the next visit opens in the same scheme
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
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
        <Title order={4}>
          <Link to="/" c="inherit" underline="never">
            platctl
          </Link>
        </Title>
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
        <ActionIcon
          variant="default"
          size="md"
          onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
          aria-label={scheme === 'dark' ? 'Light mode' : 'Dark mode'}
          title={scheme === 'dark' ? 'Light mode' : 'Dark mode'}
          data-testid="color-scheme"
          data-scheme={scheme}
        >
          {scheme === 'dark' ? '☀' : '☾'}
        </ActionIcon>
        <Button size="xs" variant="subtle" color="gray" onClick={onSignOut}>
          Sign out
        </Button>
      </Group>
    </Group>
  );
}
