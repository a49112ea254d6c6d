import { Alert, Code, List, ScrollArea, Stack, Text } from '@mantine/core';
import type { GpuChange, LeftOnPlatform } from '../api/status.js';

const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** `3 × bmaas-h100 ≈ 576 GPU-h/day (17,520/month), 7,078.32 USD/day` — what keeps running. */
function keptLine(c: GpuChange, currency?: string): string {
  const gpu =
    c.gpuHoursPerDay === undefined
      ? ' (GPUs of this profile unknown)'
      : ` ≈ ${n(c.gpuHoursPerDay)} GPU-h/day (${n(c.gpuHoursPerMonth ?? 0)}/month)`;
  const cost =
    c.costPerDay === undefined
      ? ''
      : `, ${n(c.costPerDay)} ${currency ?? ''}/day (${n(c.costPerMonth ?? 0)}/month)`;
  return `${n(c.instances)} × ${c.profile}${gpu}${cost}`;
}

/**
 * Found objects removed from git: not this state's, so never pruned and still on the platform.
 * Says so with what their compute keeps costing and how to adopt, delete or forget them.
 */
export function LeftAlert({ left }: { left: LeftOnPlatform }) {
  return (
    <Alert color="grape" title="Left on the platform" data-testid="left-alert">
      <Stack gap="xs">
        <Text size="sm" data-testid="left-message">
          {left.keys.length} resources {left.message}
        </Text>
        {left.gpu && (
          <List size="sm" data-testid="left-gpu">
            {left.gpu.changes.map((c) => (
              <List.Item key={c.profile}>
                Still running: {keptLine(c, left.gpu?.currency)}
              </List.Item>
            ))}
          </List>
        )}
        <ScrollArea.Autosize mah={160}>
          <List size="sm" data-testid="left-keys">
            {left.keys.map((k) => (
              <List.Item key={k}>
                <Code>{k}</Code>
              </List.Item>
            ))}
          </List>
        </ScrollArea.Autosize>
      </Stack>
    </Alert>
  );
}
