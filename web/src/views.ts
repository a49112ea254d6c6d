import type { ComponentType } from 'react';
import { PATHS } from './lib/route.js';
import { GraphView } from './views/GraphView.js';
import { ResourcePage } from './views/ResourcePage.js';
import { ResourcesView } from './views/ResourcesView.js';
import { RunPage } from './views/RunPage.js';
import { RunsView } from './views/RunsView.js';
import type { ViewProps } from './views/types.js';
import { UsageView } from './views/UsageView.js';

/** One view of the page, reachable by its path (deep links: the URL is the view's state). */
export interface View {
  /** A pattern for lib/route.ts's `matchPath`, e.g. `/resources/:key`. */
  readonly path: string;
  readonly label: string;
  readonly component: ComponentType<ViewProps>;
  /** Shown as a tab of the page's navigation. */
  readonly tab?: boolean;
  /** The tab highlighted while this view is open (a detail page's list). @default path */
  readonly section?: string;
  /**
   * The query parameters the page hands the view as `search`; the view reads its others itself
   * (`useLocation`), and a change of only those renders the view, not the page around it (the
   * graph's opens and focuses, issue 26). @default every parameter
   */
  readonly query?: readonly string[];
}

/**
 * Every view, first match wins. The controller answers the page for any path a browser asks
 * (src/controller/http/dashboard/assets.ts), so a view needs only a row here.
 */
export const VIEWS: readonly View[] = [
  { path: PATHS.resources, label: 'Resources', component: ResourcesView, tab: true },
  { path: '/graph', label: 'Graph', component: GraphView, tab: true, query: ['condition'] },
  { path: PATHS.runs, label: 'Runs', component: RunsView, tab: true },
  { path: '/usage', label: 'Usage', component: UsageView, tab: true },
  { path: PATHS.resource, label: 'Resource', component: ResourcePage, section: PATHS.resources },
  { path: PATHS.run, label: 'Run', component: RunPage, section: PATHS.runs },
];
