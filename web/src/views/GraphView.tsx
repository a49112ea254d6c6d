import { DependencyGraph } from '../components/graph/DependencyGraph.js';
import { navigate } from '../components/router.js';
import { conditionOf } from '../lib/format.js';
import { resourceHref } from '../lib/route.js';
import type { ViewProps } from './types.js';

/** `/graph`: the engine's order as a graph; `?condition=` filters it like the resources. */
export function GraphView({ data, search }: ViewProps) {
  return (
    <DependencyGraph
      condition={conditionOf(new URLSearchParams(search).get('condition'))}
      onSelect={(key) => navigate(resourceHref(key))}
      generation={data.generation}
    />
  );
}
