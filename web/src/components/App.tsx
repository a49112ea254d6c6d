import { Alert, AppShell, Container, Stack, Tabs } from '@mantine/core';
import { useCallback, useState } from 'react';
import { token } from '../api/client.js';
import type { Condition } from '../api/types.js';
import { Header } from './Header.js';
import { LeftAlert } from './LeftAlert.js';
import { PruneAlert } from './PruneAlert.js';
import { RejectedRevisions } from './RejectedRevisions.js';
import { ResourceDrawer } from './ResourceDrawer.js';
import { ResourceTree } from './ResourceTree.js';
import { RunHistory } from './RunHistory.js';
import { SourceCard } from './SourceCard.js';
import { SummaryBar } from './SummaryBar.js';
import { TokenGate } from './TokenGate.js';
import { UsageChart } from './UsageChart.js';
import { useDashboard } from './useDashboard.js';

/** The page: the token gate until a token is accepted, then the dashboard. */
export function App() {
  const [signedIn, setSignedIn] = useState(() => token.get() !== null);
  const signOut = useCallback(() => {
    token.clear();
    setSignedIn(false);
  }, []);
  if (!signedIn) return <TokenGate onReady={() => setSignedIn(true)} />;
  return <Dashboard onSignOut={signOut} />;
}

function Dashboard({ onSignOut }: { onSignOut: () => void }) {
  const data = useDashboard(onSignOut);
  const [filter, setFilter] = useState<Condition | undefined>();
  const [selected, setSelected] = useState<string | undefined>();
  const { status } = data;
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        <Header status={status} live={data.live} onChanged={data.refresh} onSignOut={onSignOut} />
      </AppShell.Header>
      <AppShell.Main bg="gray.0">
        <Container size="xl">
          <Stack gap="md">
            {data.error && (
              <Alert color="red" title="The controller did not answer" data-testid="load-error">
                {data.error}
              </Alert>
            )}
            {status?.blockedPrune && (
              <PruneAlert prune={status.blockedPrune} onChanged={data.refresh} />
            )}
            {status?.leftOnPlatform && <LeftAlert left={status.leftOnPlatform} />}
            {status && <SourceCard status={status} />}
            {status && status.rejected.length > 0 && (
              <RejectedRevisions rejected={status.rejected} />
            )}
            {status && <SummaryBar counts={status.counts} active={filter} onPick={setFilter} />}
            <Tabs defaultValue="resources" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="resources">Resources</Tabs.Tab>
                <Tabs.Tab value="runs" data-testid="tab-runs">
                  Runs
                </Tabs.Tab>
                <Tabs.Tab value="usage" data-testid="tab-usage">
                  Usage
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="resources" pt="sm">
                <ResourceTree resources={data.resources} filter={filter} onSelect={setSelected} />
              </Tabs.Panel>
              <Tabs.Panel value="runs" pt="sm">
                <RunHistory runs={data.runs} />
              </Tabs.Panel>
              <Tabs.Panel value="usage" pt="sm">
                <UsageChart />
              </Tabs.Panel>
            </Tabs>
          </Stack>
        </Container>
      </AppShell.Main>
      <ResourceDrawer
        resourceKey={selected}
        generation={data.generation}
        onClose={() => setSelected(undefined)}
      />
    </AppShell>
  );
}
