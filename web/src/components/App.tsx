import { Alert, AppShell, Container, Stack, Tabs } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { token } from '../api/client.js';
import type { Condition } from '../api/resources.js';
import { conditionOf } from '../lib/format.js';
import { findView, PATHS, withQuery } from '../lib/route.js';
import { VIEWS } from '../views.js';
import { Header } from './Header.js';
import { LeftAlert } from './LeftAlert.js';
import { PolicyAlert } from './PolicyAlert.js';
import { PruneAlert } from './PruneAlert.js';
import { RejectedRevisions } from './RejectedRevisions.js';
import { Link, navigate, useLocationOf } from './router.js';
import { SourceCard } from './SourceCard.js';
import { SummaryBar } from './SummaryBar.js';
import { TokenGate } from './TokenGate.js';
import { useDashboard } from './useDashboard.js';
import { WindowAlert } from './WindowAlert.js';

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

/** A condition picked in the summary bar: the resource list filtered to it (the URL's query kept). */
function pickCondition(c: Condition | undefined): void {
  const { pathname, search } = window.location;
  navigate(
    `${PATHS.resources}${withQuery(pathname === PATHS.resources ? search : '', 'condition', c)}`,
  );
}

/** The URL as the page renders it: a view's own query parameters left out (`View.query`). */
function pageHref(pathname: string, search: string): string {
  const query = findView(VIEWS, pathname)?.view.query;
  if (!query) return `${pathname}${search}`;
  const all = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of query) {
    const value = all.get(name);
    if (value !== null) kept.set(name, value);
  }
  const text = kept.toString();
  return text ? `${pathname}?${text}` : pathname;
}

function Dashboard({ onSignOut }: { onSignOut: () => void }) {
  const data = useDashboard(onSignOut);
  const { pathname, search } = useLocationOf(pageHref);
  const found = findView(VIEWS, pathname);
  const section = found ? (found.view.section ?? found.view.path) : undefined;
  const filter =
    pathname === PATHS.resources
      ? conditionOf(new URLSearchParams(search).get('condition'))
      : undefined;
  const { status, live, error, refresh } = data;
  // what is above the view depends on the status, not on the URL's query: a key typed into the
  // list's filter changes the URL, and must redraw the list, not the whole page (issue 26)
  const top = useMemo(
    () => (
      <>
        {error && (
          <Alert color="red" title="The controller did not answer" data-testid="load-error">
            {error}
          </Alert>
        )}
        {status?.blockedPrune && <PruneAlert prune={status.blockedPrune} onChanged={refresh} />}
        {status?.heldPolicy && <PolicyAlert held={status.heldPolicy} onChanged={refresh} />}
        {status?.windowHolds && <WindowAlert status={status} />}
        {status?.leftOnPlatform && <LeftAlert left={status.leftOnPlatform} />}
        {status && <SourceCard status={status} />}
        {status && status.rejected.length > 0 && <RejectedRevisions rejected={status.rejected} />}
        {status && <SummaryBar counts={status.counts} active={filter} onPick={pickCondition} />}
      </>
    ),
    [error, status, refresh, filter],
  );
  // the tabs apart: another tab redraws them, not the cards above
  const tabs = useMemo(
    () => (
      <Tabs value={section ?? null} onChange={(v) => v !== null && navigate(v)}>
        <Tabs.List>
          {VIEWS.filter((v) => v.tab).map((v) => (
            <Tabs.Tab key={v.path} value={v.path} data-testid={`tab-${v.label.toLowerCase()}`}>
              {v.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    ),
    [section],
  );
  const header = useMemo(
    () => <Header status={status} live={live} onChanged={refresh} onSignOut={onSignOut} />,
    [status, live, refresh, onSignOut],
  );
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>{header}</AppShell.Header>
      <AppShell.Main bg="var(--platctl-page-bg)">
        <Container size="xl">
          <Stack gap="md">
            {top}
            {tabs}
            {found ? (
              <found.view.component data={data} params={found.params} search={search} />
            ) : (
              <Alert color="yellow" title="No such view" data-testid="no-view">
                Nothing lives at {pathname}. <Link to={PATHS.resources}>Back to the resources</Link>
              </Alert>
            )}
          </Stack>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
