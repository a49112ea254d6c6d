import { RunHistory } from '../components/RunHistory.js';
import type { ViewProps } from './types.js';

/** `/runs`: the last runs, each a link to its page. */
export function RunsView({ data }: ViewProps) {
  return <RunHistory runs={data.runs} />;
}
