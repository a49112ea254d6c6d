import type { Condition } from '../api/types.js';

/** What the graph shows: the API's query, kept in the page's state (and its URL, later). */
export interface GraphState {
  /** Opened projects (`P`) and workspaces (`P/W`). */
  readonly expand: readonly string[];
  readonly focus?: string;
  readonly depth: number;
  readonly q: string;
}

export const INITIAL_GRAPH: GraphState = { expand: [], depth: 1, q: '' };

/** The query parameters of `GET /api/v1/graph` for a state and a condition filter (pure). */
export function graphParams(
  state: GraphState,
  condition: Condition | undefined,
): Record<string, string | number | undefined> {
  return state.focus !== undefined
    ? { focus: state.focus, depth: state.depth, condition }
    : { expand: state.expand.join(',') || undefined, condition, q: state.q || undefined };
}

/**
 * What a click on a node does (pure): a collapsed project or workspace opens (its id without the
 * `project:` or `workspace:` prefix joins `expand`), a resource becomes the focus.
 */
export function openNode(
  state: GraphState,
  node: { readonly id: string; readonly type: 'resource' | 'project' | 'workspace' },
): GraphState {
  if (node.type === 'resource') return { ...state, focus: node.id };
  const name = node.id.slice(node.id.indexOf(':') + 1);
  if (state.expand.includes(name)) return state;
  // opening a workspace opens its project too (the workspace node only exists inside it)
  const project = name.split('/')[0]!;
  const extra = state.expand.includes(project) ? [name] : [project, name];
  return { ...state, expand: [...state.expand, ...new Set(extra)] };
}

/** Closes a project and its workspaces (pure). */
export function closeProject(state: GraphState, project: string): GraphState {
  return {
    ...state,
    expand: state.expand.filter((e) => e !== project && !e.startsWith(`${project}/`)),
  };
}
