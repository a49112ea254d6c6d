import { Alert, Anchor, Badge, Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import type { ResourceDetail } from '../../api/resources.js';
import type { Status } from '../../api/status.js';
import { sourceLink, writtenLines } from '../../lib/pages.js';
import { marked, yamlLines } from '../../lib/yaml.js';

/** A YAML listing whose changed lines are marked (colour and `data-changed`, not colour alone). */
function Listing(props: {
  lines: readonly string[];
  changed: (i: number) => boolean;
  testid: string;
}) {
  return (
    <pre
      data-testid={props.testid}
      style={{ margin: 0, fontSize: 12, lineHeight: 1.5, overflowX: 'auto' }}
    >
      {props.lines.map((text, i) => {
        const on = props.changed(i);
        return (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of one document, in place
            key={i}
            data-changed={on || undefined}
            style={on ? { background: 'var(--mantine-color-orange-light)' } : undefined}
          >
            {on ? '▸ ' : '  '}
            {text || ' '}
          </div>
        );
      })}
    </pre>
  );
}

/**
 * Desired and live side by side: the document as written in git (with its `file:line`, a link
 * into the forge where the repository has a web view) and the document the platform has now,
 * each with the fields of the diff marked.
 */
export function Documents({ detail, status }: { detail: ResourceDetail; status?: Status }) {
  const changed = detail.diff.map((d) => d.path);
  const src = detail.source;
  const desired = src ? undefined : yamlLines(detail.desired ?? {});
  const written = src ? writtenLines(src.yaml, changed) : undefined;
  const live = detail.live ? yamlLines(detail.live.body) : undefined;
  const revision = status?.revisions.lastGood?.revision;
  const href = src && status ? sourceLink(status.source, revision, src.file, src.line) : undefined;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder>
        <Group justify="space-between" mb="xs">
          <Title order={6}>Git (desired)</Title>
          {src &&
            (href ? (
              <Anchor
                href={href}
                target="_blank"
                rel="noreferrer"
                size="sm"
                ff="monospace"
                data-testid="source-at"
              >
                {src.file}:{src.line}
              </Anchor>
            ) : (
              <Text size="sm" ff="monospace" data-testid="source-at">
                {src.file}:{src.line}
              </Text>
            ))}
        </Group>
        {src && written ? (
          <Listing
            lines={src.yaml.split('\n')}
            changed={(i) => written.has(i)}
            testid="desired-doc"
          />
        ) : detail.desired !== undefined && desired ? (
          <Listing
            lines={desired.map((l) => l.text)}
            changed={(i) => marked(desired[i]?.paths ?? [], changed)}
            testid="desired-doc"
          />
        ) : (
          <Text size="sm" c="dimmed">
            Not in git.
          </Text>
        )}
      </Card>
      <Card withBorder>
        <Group justify="space-between" mb="xs">
          <Title order={6}>Platform (live, read now)</Title>
          <Group gap={4}>
            {detail.live?.status && <Badge variant="light">{detail.live.status}</Badge>}
            {detail.live?.powerState && (
              <Badge variant="light" color={detail.live.powerState === 'on' ? 'teal' : 'gray'}>
                power {detail.live.powerState}
              </Badge>
            )}
          </Group>
        </Group>
        {detail.liveError && (
          <Alert color="red" mb="xs" data-testid="live-error">
            The platform could not be read: {detail.liveError}
          </Alert>
        )}
        {live ? (
          <Listing
            lines={live.map((l) => l.text)}
            changed={(i) => marked(live[i]?.paths ?? [], changed)}
            testid="live-doc"
          />
        ) : (
          !detail.liveError && (
            <Text size="sm" c="dimmed" data-testid="live-none">
              Not on the platform.
            </Text>
          )
        )}
      </Card>
    </SimpleGrid>
  );
}
