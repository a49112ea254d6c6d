import type { DashboardData } from '../components/useDashboard.js';
import type { Params } from '../lib/route.js';

/** What every view is given: the page's live data and the parameters of its path. */
export interface ViewProps {
  readonly data: DashboardData;
  readonly params: Params;
  /** The query of the URL (`?condition=Drifted`): state a link can carry. */
  readonly search: string;
}
