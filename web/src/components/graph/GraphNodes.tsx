import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { CONDITIONS, type GraphNode } from '../../api/types.js';
import { CONDITION_COLOR } from '../../lib/format.js';
import { NODE_HEIGHT, NODE_WIDTH } from '../../lib/graph-layout.js';

/** What a drawn node carries: the API's node and what a click on it does. */
export type DrawnNode = Node<{ node: GraphNode; onOpen(node: GraphNode): void }, 'platctl'>;
export type BoxNode = Node<{ label: string }, 'box'>;

const HIDDEN = { opacity: 0, pointerEvents: 'none' } as const;

/**
 * A resource (coloured by its condition, with its reason) or a collapsed project or workspace
 * (its size and counts by condition). A button, so the keyboard reaches it: a resource focuses
 * its neighbourhood, a group opens.
 */
export function PlatctlNode({ data }: NodeProps<DrawnNode>) {
  const { node, onOpen } = data;
  const color = node.condition ? CONDITION_COLOR[node.condition] : 'gray';
  const border = `var(--mantine-color-${color}-7)`;
  return (
    <>
      <Handle type="target" position={Position.Left} style={HIDDEN} isConnectable={false} />
      <UnstyledButton
        onClick={() => onOpen(node)}
        data-testid="graph-node"
        data-node={node.id}
        data-condition={node.condition ?? ''}
        aria-label={
          node.type === 'resource'
            ? `${node.label}: ${node.condition}, ${node.reason}. Show its neighbourhood`
            : `${node.label}, ${node.size} resources. Open`
        }
        style={{
          width: NODE_WIDTH,
          height: NODE_HEIGHT,
          padding: '4px 8px',
          borderRadius: 6,
          border: `2px ${node.type === 'resource' ? 'solid' : 'dashed'} ${border}`,
          background: 'var(--mantine-color-body)',
          overflow: 'hidden',
        }}
      >
        <Text size="xs" fw={600} truncate="end">
          {node.label}
        </Text>
        {node.type === 'resource' ? (
          <Text size="xs" truncate="end">
            {node.condition} · {node.reason}
          </Text>
        ) : (
          <Group gap={4} wrap="nowrap">
            <Text size="xs">{node.size}</Text>
            {CONDITIONS.filter((c) => (node.counts?.[c] ?? 0) > 0 && c !== 'Ready').map((c) => (
              <Badge key={c} size="xs" color={CONDITION_COLOR[c]} variant="light">
                {c} {node.counts?.[c]}
              </Badge>
            ))}
          </Group>
        )}
      </UnstyledButton>
      <Handle type="source" position={Position.Right} style={HIDDEN} isConnectable={false} />
    </>
  );
}

/** A project's box behind its nodes, named at its top. */
export function ProjectBox({ data, width, height }: NodeProps<BoxNode>) {
  return (
    <div
      style={{
        width,
        height,
        borderRadius: 8,
        background: 'var(--mantine-color-gray-light)',
        border: '1px solid var(--mantine-color-default-border)',
        padding: '4px 10px',
      }}
    >
      <Text size="sm" fw={600}>
        {data.label}
      </Text>
    </div>
  );
}
