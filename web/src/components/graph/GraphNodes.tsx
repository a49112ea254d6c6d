import './graph-nodes.css';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { type CSSProperties, memo } from 'react';
import type { GraphNode } from '../../api/graph.js';
import { CONDITIONS } from '../../api/resources.js';
import { CONDITION_COLOR } from '../../lib/format.js';
import { lightVariant } from '../../theme.js';

/** What a drawn node carries: the API's node and what a click on it does. */
export type DrawnNode = Node<{ node: GraphNode; onOpen(node: GraphNode): void }, 'platctl'>;
export type BoxNode = Node<{ label: string }, 'box'>;

const HIDDEN = { opacity: 0, pointerEvents: 'none' } as const;

/** Each condition's badge colours, computed once. */
const BADGE = Object.fromEntries(
  CONDITIONS.map((c) => {
    const { background, color } = lightVariant(CONDITION_COLOR[c]);
    return [c, { '--badge-bg': background, '--badge-color': color } as CSSProperties];
  }),
);

/**
 * A resource (coloured by its condition, with its reason) or a collapsed project or workspace
 * (its size and counts by condition). A button, so the keyboard reaches it: a resource focuses
 * its neighbourhood, a group opens. Plain elements styled by graph-nodes.css, not Mantine's
 * components: a drawing has hundreds of nodes, and each Mantine component reads the theme and
 * computes its styles (bench/README.md, the dashboard's profile).
 */
function PlatctlNodeView({ data }: NodeProps<DrawnNode>) {
  const { node, onOpen } = data;
  const color = node.condition ? CONDITION_COLOR[node.condition] : 'gray';
  const resource = node.type === 'resource';
  return (
    <>
      <Handle type="target" position={Position.Left} style={HIDDEN} isConnectable={false} />
      <button
        type="button"
        className="platctl-node"
        onClick={() => onOpen(node)}
        data-testid="graph-node"
        data-node={node.id}
        data-condition={node.condition ?? ''}
        {...(resource ? {} : { 'data-group': '' })}
        aria-label={
          resource
            ? `${node.label}: ${node.condition}, ${node.reason}. Show its neighbourhood`
            : `${node.label}, ${node.size} resources. Open`
        }
        style={{ '--node-border': `var(--mantine-color-${color}-7)` } as CSSProperties}
      >
        <span className="platctl-node-line platctl-node-title">{node.label}</span>
        {resource ? (
          <span className="platctl-node-line">
            {node.condition} · {node.reason}
          </span>
        ) : (
          <span className="platctl-node-counts">
            <span>{node.size}</span>
            {CONDITIONS.filter((c) => (node.counts?.[c] ?? 0) > 0 && c !== 'Ready').map((c) => (
              <span key={c} className="platctl-node-badge" style={BADGE[c]}>
                {c} {node.counts?.[c]}
              </span>
            ))}
          </span>
        )}
      </button>
      <Handle type="source" position={Position.Right} style={HIDDEN} isConnectable={false} />
    </>
  );
}

/** A project's box behind its nodes, named at its top. */
function ProjectBoxView({ data, width, height }: NodeProps<BoxNode>) {
  return (
    <div className="platctl-box" style={{ width, height }}>
      {data.label}
    </div>
  );
}

// xyflow re-renders a node whenever its store changes; the props of an unchanged node are equal
export const PlatctlNode = memo(PlatctlNodeView);
export const ProjectBox = memo(ProjectBoxView);
