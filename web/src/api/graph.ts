import type { Condition } from './resources.js';

/**
 * The dependency graph as the page reads it (`GET /api/v1/graph`, docs/control-api.md).
 */

/** A node of `GET /api/v1/graph`: a resource, or a collapsed project or workspace. */
export interface GraphNode {
  readonly id: string;
  readonly type: 'resource' | 'project' | 'workspace';
  readonly label: string;
  /** The project it is drawn in; `''` for resources of no project. */
  readonly group: string;
  readonly kind?: string;
  readonly condition?: Condition;
  readonly reason?: string;
  readonly counts?: Partial<Record<Condition, number>>;
  readonly size?: number;
}

/** `GET /api/v1/graph`: `target` waits for `source`. */
export interface GraphAnswer {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly {
    readonly source: string;
    readonly target: string;
    readonly count: number;
  }[];
  readonly matched: number;
  readonly truncated: boolean;
}
