import { useReactFlow } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import type { GraphState } from '../../lib/graph-view.js';

/** The view fitted to a drawing: never past 100 % (a few nodes stay their size). */
export const FIT = { maxZoom: 1 } as const;

/**
 * Fits the view to each drawing after the first this flow shows (the flow fits its first on
 * mount): the fit is asked for once the drawing's nodes are committed and done once they are in
 * xyflow's store.
 */
export function FitEachDrawing({ drawing }: { readonly drawing: number }) {
  const { fitView } = useReactFlow();
  const first = useRef(drawing);
  useEffect(() => {
    if (drawing !== first.current) void fitView(FIT);
  }, [drawing, fitView]);
  return null;
}

/**
 * Which flow draws a view: one per focus and search. Opening or closing a project or workspace,
 * another depth or a refresh keeps the flow and its nodes (most stay: diffed, not rebuilt); a new
 * focus or search, which keeps few of them, starts a flow afresh, which costs less than removing
 * the old nodes one by one (bench/README.md, the dashboard's profile).
 */
export const flowOf = (view: GraphState) => `${view.focus ?? ''}\n${view.q}`;
