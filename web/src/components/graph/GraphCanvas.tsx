import '@xyflow/react/dist/style.css';
import { Box } from '@mantine/core';
import { Background, type Edge, MarkerType, ReactFlow } from '@xyflow/react';
import { memo, useMemo, useRef } from 'react';
import type { GraphAnswer, GraphNode } from '../../api/graph.js';
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH } from '../../lib/graph-layout.js';
import { FIT, FitEachDrawing } from './FitEachDrawing.js';
import { type BoxNode, type DrawnNode, PlatctlNode, ProjectBox } from './GraphNodes.js';

const NODE_TYPES = { platctl: PlatctlNode, box: ProjectBox };
const ARROW = { type: MarkerType.ArrowClosed } as const;

interface Props {
  readonly answer: GraphAnswer | undefined;
  /** Which flow draws the answer (`flowOf`): a new one mounts a fresh flow. */
  readonly flow: string;
  /** Counts the answers drawn: each is fitted to the view. */
  readonly drawing: number;
  /** A click on a node (stable: a new function redraws every node). */
  onOpen(node: GraphNode): void;
}

type Drawn = { nodes: (DrawnNode | BoxNode)[]; edges: Edge[] };

/**
 * The drawing itself, memoised apart from the graph's toolbar: a key typed into the search box,
 * or the URL changed by an open or a focus before its answer is read, renders the toolbar, not
 * xyflow (issue 26: xyflow's per-node work on each update).
 */
function GraphCanvasView({ answer, flow, drawing, onOpen }: Props) {
  const last = useRef<Drawn>({ nodes: [], edges: [] });
  const { nodes, edges } = useMemo(() => {
    const next = reuse(draw(answer, onOpen), last.current);
    last.current = next;
    return next;
  }, [answer, onOpen]);
  return (
    <Box h={620} data-testid="graph-canvas" aria-label="Dependency graph">
      <ReactFlow<DrawnNode | BoxNode, Edge>
        key={flow}
        fitView
        fitViewOptions={FIT}
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        minZoom={0.05}
        onlyRenderVisibleElements
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <FitEachDrawing drawing={drawing} />
      </ReactFlow>
    </Box>
  );
}

export const GraphCanvas = memo(GraphCanvasView);

/**
 * The previous drawing's node and edge objects kept where nothing about them changed (same
 * place, same content): xyflow keeps its internal node for an object it has seen, and its node
 * components are not rendered again, so an open redraws the opened project, not every node.
 */
function reuse(next: Drawn, prev: Drawn): Drawn {
  const nodes = new Map(prev.nodes.map((n) => [n.id, n]));
  const edges = new Map(prev.edges.map((e) => [e.id, e]));
  return {
    nodes: next.nodes.map((n) => {
      const old = nodes.get(n.id);
      return old && sameNode(old, n) ? old : n;
    }),
    edges: next.edges.map((e) => {
      const old = edges.get(e.id);
      return old && old.label === e.label ? old : e;
    }),
  };
}

function sameNode(a: DrawnNode | BoxNode, b: DrawnNode | BoxNode): boolean {
  if (a.position.x !== b.position.x || a.position.y !== b.position.y) return false;
  if (a.width !== b.width || a.height !== b.height || a.type !== b.type) return false;
  if (a.type === 'box' || b.type === 'box') {
    return (a as BoxNode).data.label === (b as BoxNode).data.label;
  }
  const [x, y] = [(a as DrawnNode).data, (b as DrawnNode).data];
  return x.onOpen === y.onOpen && JSON.stringify(x.node) === JSON.stringify(y.node);
}

/** The API's answer as xyflow nodes and edges, laid out, project boxes behind (pure). */
function draw(answer: GraphAnswer | undefined, onOpen: (node: GraphNode) => void): Drawn {
  if (!answer) return { nodes: [], edges: [] };
  const layout = layoutGraph(answer.nodes, answer.edges);
  // a collapsed project is its own box
  const collapsed = new Set(answer.nodes.filter((n) => n.type === 'project').map((n) => n.group));
  const boxes: BoxNode[] = [...layout.groups]
    .filter(([group]) => !collapsed.has(group))
    .map(([group, box]) => ({
      id: `box:${group}`,
      type: 'box',
      position: { x: box.x, y: box.y },
      width: box.width,
      height: box.height,
      data: { label: group === '' ? 'no project' : `project ${group}` },
      zIndex: -1,
      selectable: false,
      focusable: false,
    }));
  const drawn: DrawnNode[] = answer.nodes.map((node) => ({
    id: node.id,
    type: 'platctl',
    position: layout.positions.get(node.id)!,
    // known sizes: fitView and the visible-only rendering need no measuring first
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    data: { node, onOpen },
    focusable: false,
    // not selectable, so xyflow lets clicks through to the pane; the node's button takes them
    style: { pointerEvents: 'all' },
  }));
  const edges: Edge[] = answer.edges.map((e) => ({
    id: `${e.source}>${e.target}`,
    source: e.source,
    target: e.target,
    markerEnd: ARROW,
    ...(e.count > 1 ? { label: String(e.count) } : {}),
    focusable: false,
  }));
  return { nodes: [...boxes, ...drawn], edges };
}
