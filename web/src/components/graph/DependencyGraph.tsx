import { Alert, Button, Card, Group, SegmentedControl, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../../api/client.js';
import type { GraphAnswer, GraphNode } from '../../api/graph.js';
import type { Condition } from '../../api/resources.js';
import {
  closeProject,
  type GraphState,
  graphParams,
  graphSearch,
  graphStateOf,
  INITIAL_GRAPH,
  openNode,
} from '../../lib/graph-view.js';
import { navigate, useLocation } from '../router.js';
import { flowOf } from './FitEachDrawing.js';
import { GraphCanvas } from './GraphCanvas.js';

interface Props {
  /** The summary bar's condition filter. */
  readonly condition: Condition | undefined;
  /** Opens a resource's details. */
  onSelect(key: string): void;
  /** Bumped when the controller's status changes: read the graph again. */
  readonly generation: number;
}

/**
 * The graph's state kept in the page's URL (expand, focus, depth, search), so every view of it is
 * a link and the back button undoes an open or a focus; `replace` for the search box's text.
 */
function useGraphUrl(condition: Condition | undefined) {
  const { search } = useLocation();
  const state = useMemo(() => graphStateOf(search), [search]);
  const set = useCallback(
    (next: (s: GraphState) => GraphState, replace = false) => {
      const now = graphStateOf(window.location.search);
      navigate(`${window.location.pathname}${graphSearch(next(now), condition)}`, replace);
    },
    [condition],
  );
  return [state, set] as const;
}

/**
 * The engine's order as a graph: what waits for what, grouped by project, coloured by condition.
 * Projects start collapsed (one node each, with counts); a click opens one, and a resource
 * focuses on its neighbourhood. The server groups, filters and cuts (`GET /api/v1/graph`); the
 * page lays out only what it is sent.
 */
export function DependencyGraph({ condition, onSelect, generation }: Props) {
  const [state, setState] = useGraphUrl(condition);
  const [answer, setAnswer] = useState<GraphAnswer | undefined>();
  // counts the answers drawn: each is fitted to the view
  const [drawing, setDrawing] = useState(0);
  const [flow, setFlow] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [search, setSearch] = useState(state.q);
  const [q] = useDebouncedValue(search, 150);
  // the search box's text reaches the URL once typing pauses, replacing the entry
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced text writes
  useEffect(() => {
    if (q !== state.q) setState((s) => ({ ...s, q }), true);
  }, [q]);
  const view = state;
  // biome-ignore lint/correctness/useExhaustiveDependencies: generation asks for a fresh read
  useEffect(() => {
    let live = true;
    api
      .graph(graphParams(view, condition))
      .then((a) => {
        if (!live) return;
        setAnswer(a);
        setFlow(flowOf(view));
        setDrawing((d) => d + 1);
        setError(undefined);
      })
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [view, condition, generation]);
  const open = useCallback((n: GraphNode) => setState((s) => openNode(s, n)), [setState]);
  return (
    <Card withBorder padding="sm" data-testid="graph">
      <Group justify="space-between" mb="xs" wrap="wrap">
        {state.focus ? (
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              onClick={() => setState((s) => ({ ...s, focus: undefined }))}
            >
              Back to the projects
            </Button>
            <Text size="sm" data-testid="graph-focus">
              Around {state.focus}
            </Text>
            <SegmentedControl
              size="xs"
              aria-label="Steps around it"
              value={String(state.depth)}
              onChange={(v) => setState((s) => ({ ...s, depth: Number(v) }))}
              data={['1', '2', '3']}
            />
            <Button size="xs" variant="light" onClick={() => onSelect(state.focus!)}>
              Details
            </Button>
          </Group>
        ) : (
          <Group gap="xs">
            <TextInput
              size="xs"
              w={280}
              aria-label="Search resources"
              placeholder="Search: a part of a key"
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              data-testid="graph-search"
            />
            {state.expand.length > 0 && (
              <Button
                size="xs"
                variant="default"
                onClick={() => setState((s) => ({ ...INITIAL_GRAPH, q: s.q }))}
              >
                Collapse all
              </Button>
            )}
            {[...new Set(state.expand.map((e) => e.split('/')[0]!))].map((p) => (
              <Button
                key={p}
                size="xs"
                variant="subtle"
                onClick={() => setState((s) => closeProject(s, p))}
              >
                Close {p}
              </Button>
            ))}
          </Group>
        )}
        <Text size="xs" c="dimmed" data-testid="graph-count">
          {answer ? `${answer.matched} resources, ${answer.nodes.length} nodes` : 'Loading'}
        </Text>
      </Group>
      {error && (
        <Alert color="red" mb="xs">
          {error}
        </Alert>
      )}
      {answer?.truncated && (
        <Alert color="yellow" mb="xs">
          Only the first {answer.nodes.length} nodes are drawn: search, or close a project.
        </Alert>
      )}
      <GraphCanvas answer={answer} flow={flow} drawing={drawing} onOpen={open} />
    </Card>
  );
}
