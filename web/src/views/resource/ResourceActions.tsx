import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client.js';
import type { ResourceItem } from '../../api/resources.js';
import type { Status } from '../../api/status.js';
import { PruneConfirm } from '../../components/PruneConfirm.js';

interface Props {
  readonly resource: ResourceItem;
  readonly status?: Status;
  onChanged(): void;
}

/**
 * What can be done to one resource: reconcile it now, forget its backoff, and approve the held
 * prune it belongs to (the approval covers the whole prune: its dialog lists every key).
 */
export function ResourceActions({ resource, status, onChanged }: Props) {
  const [busy, setBusy] = useState<string>();
  const [note, setNote] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const held = status?.blockedPrune?.keys.includes(resource.key) ? status.blockedPrune : undefined;
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
    <Group gap="xs">
      <Button
        size="xs"
        onClick={act('reconcile', () => api.reconcileResource(resource.key), 'reconcile requested')}
        loading={busy === 'reconcile'}
        data-testid="resource-reconcile"
      >
        Reconcile this
      </Button>
      <Button
        size="xs"
        variant="default"
        onClick={act('reset backoff', () => api.resetBackoff(resource.key), 'backoff reset')}
        loading={busy === 'reset backoff'}
        data-testid="resource-reset-backoff"
      >
        Reset backoff
      </Button>
      {held && (
        <>
          <Button
            size="xs"
            color="red"
            onClick={() => setConfirming(true)}
            data-testid="resource-approve"
          >
            Approve the held prune…
          </Button>
          <PruneConfirm
            prune={held}
            opened={confirming}
            onClose={() => setConfirming(false)}
            onChanged={onChanged}
          />
        </>
      )}
      {note && (
        <Text size="sm" c="dimmed" data-testid="resource-note" role="status">
          {note}
        </Text>
      )}
    </Group>
  );
}
