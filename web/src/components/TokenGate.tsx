import { Alert, Button, Card, Center, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ApiError, api, token } from '../api/client.js';

/**
 * Asks for the control token once per browser tab. The token is checked against
 * `/api/v1/status` and kept in sessionStorage only; it never goes into a URL.
 */
export function TokenGate({ onReady }: { onReady: () => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    token.set(value.trim());
    try {
      await api.status();
      onReady();
    } catch (err) {
      token.clear();
      if (err instanceof ApiError && err.status === 401) setError('That token is not accepted.');
      else if (err instanceof ApiError && err.status === 404) {
        setError(
          'The control API is disabled: start the controller with --control-token-file or PLATCTL_CONTROL_TOKEN.',
        );
      } else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center mih="100vh" bg="var(--platctl-page-bg)">
      <Card withBorder shadow="sm" w={420} p="xl">
        <form onSubmit={submit}>
          <Stack>
            <Title order={3}>platctl dashboard</Title>
            <Text size="sm" c="dimmed">
              Enter the controller's control token. It is kept in this tab only and sent in the
              Authorization header.
            </Text>
            <PasswordInput
              label="Control token"
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
              autoFocus
              required
              data-testid="token-input"
            />
            {error && (
              <Alert color="red" data-testid="token-error">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={busy} data-testid="token-submit">
              Open dashboard
            </Button>
          </Stack>
        </form>
      </Card>
    </Center>
  );
}
