/**
 * The controller's control API as the page reads it: the shapes of docs/control-api.md
 * (docs/dashboard.md lists the routes), one module per area. The page's modules import from the
 * area's module; this index answers for those that still import from here.
 */
export * from './graph.js';
export * from './resources.js';
export type * from './runs.js';
export type * from './status.js';
export type * from './usage.js';
