/**
 * Wraps an async job so that bursts of triggers run it at most once at a time: a trigger while
 * it runs asks for exactly one more run, `gapMs` after the current one ends. Status events can
 * arrive many times a second during a large run; re-reading 10,000 resources for each would
 * pile up requests, while dropping them would leave the page stale. No DOM; timers only.
 */
export function coalesce(job: () => Promise<void>, gapMs: number): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    running = true;
    job()
      .catch(() => {
        // the job reports its own errors; a failure must not stop later runs
      })
      .finally(() => {
        if (!again) {
          running = false;
          return;
        }
        again = false;
        setTimeout(run, gapMs);
      });
  };
  return () => {
    if (running) again = true;
    else run();
  };
}
