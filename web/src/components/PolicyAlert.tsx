import { Alert, Button, Code, Group, List, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client.js';
import type { HeldPolicy } from '../api/status.js';

/** A run held by `require-approval` policy rules: what failed, and an approval of that run. */
export function PolicyAlert({ held, onChanged }: { held: HeldPolicy; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const approve = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api.approveRun(held.runId);
      onChanged();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert color="orange" title="Held for policy approval" data-testid="policy-alert">
      <Group justify="space-between" align="flex-start">
        <Text size="sm">
          Run {held.runId} needs approval of rule(s) {held.rules.join(', ')}. Nothing was changed.
        </Text>
        <Button size="xs" loading={busy} onClick={approve} data-testid="policy-approve">
          Approve
        </Button>
      </Group>
      <List size="sm">
        {held.findings.map((f) => (
          <List.Item key={`${f.rule} ${f.key}`}>
            <Code>{f.key}</Code> {f.message}
          </List.Item>
        ))}
      </List>
      {error && <Text c="red">{error}</Text>}
    </Alert>
  );
}
