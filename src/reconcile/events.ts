import type { Action, ActionOutcome } from '../model/action.js';

/**
 * What the engine tells people while it works; the CLI renders these as progress lines, the
 * controller as log lines and metrics.
 */
export type RunEvent =
  | { readonly type: 'observe'; readonly kind: string; readonly count: number }
  | { readonly type: 'adopted'; readonly key: string }
  /** A pending create found its object live but could not prove it made it: recorded as found. */
  | { readonly type: 'found'; readonly key: string }
  | { readonly type: 'start'; readonly action: Action }
  | {
      readonly type: 'progress';
      readonly action: Action;
      readonly message: string;
      readonly elapsedMs: number;
      /** How long this wait typically takes on the platform; undefined when unknown. */
      readonly expectedMs?: number;
    }
  | { readonly type: 'finish'; readonly action: Action; readonly outcome: ActionOutcome }
  | { readonly type: 'stopping'; readonly reason: string };

/** Where events go. */
export type EventSink = (event: RunEvent) => void;
