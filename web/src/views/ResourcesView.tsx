import { ResourceTree } from '../components/ResourceTree.js';
import { navigate } from '../components/router.js';
import { conditionOf } from '../lib/format.js';
import { withQuery } from '../lib/route.js';
import type { ViewProps } from './types.js';

/** `/`: every resource by project, paged by the server; `?condition=` and `?q=` keep the filters in the URL. */
export function ResourcesView({ data, search }: ViewProps) {
  const q = new URLSearchParams(search);
  return (
    <ResourceTree
      filter={conditionOf(q.get('condition'))}
      query={q.get('q') ?? ''}
      onQuery={(text) => navigate(`/${withQuery(search, 'q', text)}`, true)}
      generation={data.generation}
    />
  );
}
