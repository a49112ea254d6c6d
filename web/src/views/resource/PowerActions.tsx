import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client.js';
import type { PowerOffer, PowerVerb } from '../../api/resources.js';

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

/** What a destructive action does to the instance, said in its confirmation. */
const CONSEQUENCE: Readonly<Record<'off' | 'reboot', string>> = {
  off: 'It stops: whatever runs on it is cut off, and it stays off until powered on again (the controller keeps it off).',
  reboot: 'It restarts at once (one power reset): whatever runs on it is cut off while it boots.',
};

/**
 * A compute instance's power buttons: only the actions git allows now (the control API decides:
 * no power state pinned in git, no PowerSchedule, no ChangeWindow holding power, the controller
 * applying), each sent through the control API and carried out by the controller's next run;
 * why the others are absent is said beside them. Power off and reboot cut off what runs on the
 * instance, so each asks first in a dialog naming it; power on does not.
 */
export function PowerActions({ resourceKey, offer, onChanged }: Props) {
  const [busy, setBusy] = useState<PowerVerb>();
  const [note, setNote] = useState<string>();
  /** The destructive action waiting for its confirmation. */
  const [asking, setAsking] = useState<'off' | 'reboot'>();
  const send = async (verb: PowerVerb) => {
    setAsking(undefined);
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
            onClick={() => (verb === 'on' ? send(verb) : setAsking(verb))}
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
      <Modal
        opened={asking !== undefined}
        onClose={() => setAsking(undefined)}
        title={asking ? `${LABEL[asking]} ${resourceKey}?` : ''}
        closeButtonProps={{ 'aria-label': 'Close without changing anything' }}
      >
        {asking && (
          <Stack>
            <Text size="sm">
              <Code>{resourceKey}</Code>: {CONSEQUENCE[asking]}
            </Text>
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => setAsking(undefined)}
                data-testid="power-cancel"
              >
                Cancel
              </Button>
              <Button color="red" onClick={() => send(asking)} data-testid="power-confirm">
                {LABEL[asking]}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
