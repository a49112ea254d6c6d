import { Alert, Text } from '@mantine/core';
import type { Status } from '../api/status.js';

/** Actions a change window holds: how many, which windows, and when the first may run. */
export function WindowAlert({ status }: { status: Status }) {
  const holds = status.windowHolds ?? [];
  const windows = [...new Set(holds.map((h) => h.window))].join(', ');
  return (
    <Alert color="blue" title="Held by change windows" data-testid="window-alert">
      <Text size="sm">
        {holds.length} action(s) held until {status.heldUntil ?? 'a window opens'} ({windows}).
      </Text>
    </Alert>
  );
}
