import { describe, expect, it } from 'vitest';
import {
  findView,
  matchPath,
  PATHS,
  pathOf,
  resourceHref,
  runHref,
  withQuery,
} from '../../web/src/lib/route.js';

describe("the page's routes", () => {
  it('match a path and decode its parameters: a resource key with slashes is one segment', () => {
    const key = 'ComputeInstance/ml-research/gpu/a100 #1';
    const href = resourceHref(key);
    expect(href).toBe('/resources/ComputeInstance%2Fml-research%2Fgpu%2Fa100%20%231');
    expect(matchPath(PATHS.resource, href)).toEqual({ key });
    expect(matchPath(PATHS.run, runHref('r-1'))).toEqual({ runId: 'r-1' });
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/runs', '/runs/')).toEqual({});
  });

  it('refuse what does not match: other segments, other lengths, broken encoding', () => {
    expect(matchPath(PATHS.resource, '/runs/x')).toBeUndefined();
    expect(matchPath(PATHS.resource, '/resources')).toBeUndefined();
    expect(matchPath(PATHS.resource, '/resources/a/b')).toBeUndefined();
    expect(matchPath(PATHS.resource, '/resources/%E0%A4%A')).toBeUndefined();
  });

  it('fill a pattern, refusing a missing parameter', () => {
    expect(pathOf('/runs/:runId', { runId: 'a/b' })).toBe('/runs/a%2Fb');
    expect(() => pathOf('/runs/:runId')).toThrow(/needs the parameter runId/);
  });

  it('pick the first view that matches', () => {
    const views = [{ path: '/runs' }, { path: '/runs/:runId' }, { path: '/' }];
    expect(findView(views, '/runs/7')).toEqual({ view: views[1], params: { runId: '7' } });
    expect(findView(views, '/')?.view).toBe(views[2]);
    expect(findView(views, '/nowhere')).toBeUndefined();
  });

  it('keep state in the query: set, replace and remove one parameter', () => {
    expect(withQuery('', 'condition', 'Drifted')).toBe('?condition=Drifted');
    expect(withQuery('?condition=Drifted&q=vm', 'condition', 'Ready')).toBe(
      '?condition=Ready&q=vm',
    );
    expect(withQuery('?condition=Drifted', 'condition', undefined)).toBe('');
    expect(withQuery('?q=vm', 'q', '')).toBe('');
  });
});
