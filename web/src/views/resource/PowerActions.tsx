import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client.js';
import type { PowerOffer, PowerVerb } from '../../api/types.js';

interface Props {
  readonly resourceKey: string;
  readonly offer: PowerOffer;
  onChanged(): void;
}

const LABEL: Readonly<Record<PowerVerb, string>> = {
  on: 'Power on',
  off: 'Power off',
  reboot: 'Reboot',
};

const DONE: Readonly<Record<PowerVerb, string>> = {
  on: 'power on requested: the controller runs now and keeps it on',
  off: 'power off requested: the controller runs now and keeps it off',
  reboot: 'reboot requested: the controller runs now',
};

/**
 * A compute instance's power buttons: only the actions git allows now (the control API decides:
 * no power state pinned in git, no PowerSchedule, no ChangeWindow holding power, the controller
 * applying), each sent through the control API and carried out by the controller's next run;
 * why the others are absent is said beside them.
 */
export function PowerActions({ resourceKey, offer, onChanged }: Props) {
  const [busy, setBusy] = useState<PowerVerb>();
  const [note, setNote] = useState<string>();
  const act = (verb: PowerVerb) => async () => {
    setBusy(verb);
    setNote(undefined);
    try {
      await api.power(resourceKey, verb);
      setNote(DONE[verb]);
      onChanged();
    } catch (err) {
      setNote(`${LABEL[verb]} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <Stack gap={4} data-testid="power-actions">
      <Group gap="xs">
        {offer.actions.map((verb) => (
          <Button
            key={verb}
            size="xs"
            variant="default"
            onClick={act(verb)}
            loading={busy === verb}
            data-testid={`power-${verb}`}
          >
            {LABEL[verb]}
          </Button>
        ))}
        {note && (
          <Text size="sm" c="dimmed" role="status" data-testid="power-note">
            {note}
          </Text>
        )}
      </Group>
      {offer.reasons.map((why) => (
        <Text key={why} size="sm" c="dimmed" data-testid="power-reason">
          {offer.actions.length === 0 ? 'No power actions: ' : 'Some power actions are absent: '}
          {why}
        </Text>
      ))}
    </Stack>
  );
}
