import { Alert, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { BlockedPrune } from '../api/status.js';
import { PruneConfirm } from './PruneConfirm.js';

/**
 * A prune held back by `--max-deletes`: what it would delete, and an approval that deletes only
 * after a confirmation naming the count.
 */
export function PruneAlert({ prune, onChanged }: { prune: BlockedPrune; onChanged: () => void }) {
  const [confirming, setConfirming] = useState(false);
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
      <PruneConfirm
        prune={prune}
        opened={confirming}
        onClose={() => setConfirming(false)}
        onChanged={onChanged}
      />
    </Alert>
  );
}
