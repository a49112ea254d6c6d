import { Alert, Button, Code, Group, List, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client.js';
import type { BlockedPrune } from '../api/types.js';

/**
 * A prune held back by `--max-deletes`: what it would delete, and an approval that deletes only
 * after a confirmation naming the count.
 */
export function PruneAlert({ prune, onChanged }: { prune: BlockedPrune; onChanged: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const approve = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api.approvePrune(prune.runId);
      setConfirming(false);
      onChanged();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert color="orange" title="Prune blocked" data-testid="prune-alert">
      <Group justify="space-between" align="flex-start">
        <Text size="sm">
          Run {prune.runId} would delete {prune.count} resources, more than the limit of{' '}
          {prune.limit}. Nothing was deleted.
        </Text>
        <Button
          color="red"
          size="xs"
          onClick={() => setConfirming(true)}
          data-testid="prune-review"
        >
          Review and approve…
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Delete ${prune.count} resources?`}
        size="lg"
      >
        <Stack>
          <Text size="sm">
            These resources are no longer in git and platctl created them. Approving deletes them on
            the platform; this cannot be undone.
          </Text>
          <ScrollArea.Autosize mah={260}>
            <List size="sm" data-testid="prune-keys">
              {prune.keys.map((k) => (
                <List.Item key={k}>
                  <Code>{k}</Code>
                </List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
          {error && <Alert color="red">{error}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button color="red" loading={busy} onClick={approve} data-testid="prune-confirm">
              Delete {prune.count} resources
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Alert>
  );
}
