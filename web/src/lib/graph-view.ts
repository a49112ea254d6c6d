import type { Condition } from '../api/resources.js';

/** What the graph shows: the API's query, kept in the page's state (and its URL, later). */
export interface GraphState {
  /** Opened projects (`P`) and workspaces (`P/W`). */
  readonly expand: readonly string[];
  readonly focus?: string;
  readonly depth: number;
  readonly q: string;
}

export const INITIAL_GRAPH: GraphState = { expand: [], depth: 1, q: '' };

/** The graph's state as `/graph`'s URL keeps it: `?expand=P,P/W&focus=K&depth=2&q=…` (pure). */
export function graphStateOf(search: string): GraphState {
  const p = new URLSearchParams(search);
  const depth = Number(p.get('depth'));
  const focus = p.get('focus');
  return {
    expand: (p.get('expand') ?? '').split(',').filter(Boolean),
    ...(focus ? { focus } : {}),
    depth: Number.isInteger(depth) && depth >= 1 && depth <= 5 ? depth : 1,
    q: p.get('q') ?? '',
  };
}

/** The query of `/graph` for a state, the condition filter kept (pure; '' for the initial view). */
export function graphSearch(state: GraphState, condition: string | undefined): string {
  const p = new URLSearchParams();
  if (condition) p.set('condition', condition);
  if (state.expand.length > 0) p.set('expand', state.expand.join(','));
  if (state.focus !== undefined) p.set('focus', state.focus);
  if (state.depth !== 1) p.set('depth', String(state.depth));
  if (state.q) p.set('q', state.q);
  const text = p.toString();
  return text ? `?${text}` : '';
}

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
