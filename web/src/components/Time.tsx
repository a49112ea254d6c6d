import { useSyncExternalStore } from 'react';
import { timeAgo, timeUntil } from '../lib/format.js';
import { absoluteTime } from '../lib/pages.js';

/** How often relative times move on. */
const TICK_MS = 10_000;

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(onTick: () => void): () => void {
  listeners.add(onTick);
  if (timer === undefined) now = Date.now(); // idle meanwhile: start from the time it is
  timer ??= setInterval(() => {
    now = Date.now();
    for (const l of listeners) l();
  }, TICK_MS);
  return () => {
    listeners.delete(onTick);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The page's clock (epoch ms), one timer for every time shown, moving every 10 s. */
function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}

/**
 * The one way the page shows a time: relative (`5 min ago`, or `in 2 h` for a time `ahead`), the
 * absolute UTC time on hover (`title`) and in the `<time>` element's `dateTime` for assistive
 * technology.
 */
export function Time({
  iso,
  prefix = '',
  ahead = false,
}: {
  iso: string | undefined;
  prefix?: string;
  ahead?: boolean;
}) {
  const at = useNow();
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={absoluteTime(iso)} data-testid="time">
      {prefix}
      {ahead ? timeUntil(iso, at) : timeAgo(iso, at)}
    </time>
  );
}
