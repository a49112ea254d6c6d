import { ResourceTree } from '../components/ResourceTree.js';
import { navigate } from '../components/router.js';
import { conditionOf } from '../lib/format.js';
import { withQuery } from '../lib/route.js';
import { nextSort, sortOf, sortParam } from '../lib/sort.js';
import type { ViewProps } from './types.js';

/**
 * `/`: every resource by project, paged and sorted by the server; `?condition=`, `?q=` and
 * `?sort=` (`name`, `-changed`, ...) keep the filters and the order in the URL.
 */
export function ResourcesView({ data, search }: ViewProps) {
  const q = new URLSearchParams(search);
  const sort = sortOf(q.get('sort'));
  return (
    <ResourceTree
      filter={conditionOf(q.get('condition'))}
      query={q.get('q') ?? ''}
      onQuery={(text) => navigate(`/${withQuery(search, 'q', text)}`, true)}
      sort={sort}
      onSort={(field) =>
        navigate(`/${withQuery(search, 'sort', sortParam(nextSort(sort, field)))}`)
      }
      generation={data.generation}
    />
  );
}
