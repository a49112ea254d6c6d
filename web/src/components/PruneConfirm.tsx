import { Alert, Button, Code, Group, List, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client.js';
import type { BlockedPrune } from '../api/status.js';

interface Props {
  readonly prune: BlockedPrune;
  readonly opened: boolean;
  onClose(): void;
  onChanged(): void;
}

/**
 * The confirmation of a held prune: every resource it deletes, and a button naming the count.
 * An approval covers the whole held prune (the control API approves it by run).
 */
export function PruneConfirm({ prune, opened, onClose, onChanged }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const approve = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api.approvePrune(prune.runId);
      onClose();
      onChanged();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={`Delete ${prune.count} resources?`} size="lg">
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
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={approve} data-testid="prune-confirm">
            Delete {prune.count} resources
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
