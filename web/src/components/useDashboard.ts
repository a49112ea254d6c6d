import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api } from '../api/client.js';
import { followEvents } from '../api/events.js';
import type { RunItem } from '../api/runs.js';
import type { Status } from '../api/status.js';
import { coalesce } from '../lib/coalesce.js';
import { statusOrder } from '../lib/status-order.js';

/** Everything the page shows, kept current by the event stream (or by polling without it). */
export interface DashboardData {
  readonly status?: Status;
  readonly runs: readonly RunItem[];
  readonly live: 'connecting' | 'stream' | 'polling';
  readonly error?: string;
  /**
   * Bumped whenever the status says the resources changed: open views (the list, a resource's
   * page) read theirs again.
   */
  readonly generation: number;
  refresh(): void;
}

const POLL_MS = 3000;
/** Least time between two reads of the resource list while status keeps changing. */
const RELOAD_GAP_MS = 1000;

/** A fingerprint of the status fields whose change means the resource list changed too. */
const fingerprint = (s: Status) =>
  JSON.stringify([s.counts, s.lastRunAt, s.lastResult, s.suspended, s.blockedPrune?.runId]);

/**
 * Loads status and runs (the resource list reads its own pages), then follows `/api/v1/events`; while the stream is down it
 * polls every 3 s. A 401 anywhere calls `onUnauthorized` (the token was changed or revoked).
 */
export function useDashboard(onUnauthorized: () => void): DashboardData {
  const [status, setStatus] = useState<Status>();
  const [runs, setRuns] = useState<readonly RunItem[]>([]);
  const [live, setLive] = useState<DashboardData['live']>('connecting');
  const [error, setError] = useState<string>();
  const [generation, setGeneration] = useState(0);
  const lastPrint = useRef('');
  // a read's answer must not put back a status older than one the stream delivered meanwhile
  const [order] = useState(statusOrder);

  const fail = useCallback(
    (err: unknown) => {
      if (err instanceof ApiError && err.status === 401) onUnauthorized();
      else setError(err instanceof Error ? err.message : String(err));
    },
    [onUnauthorized],
  );

  const reloadLists = useMemo(
    () =>
      coalesce(async () => {
        try {
          const r = await api.runs(20);
          setRuns(r.items);
          setGeneration((g) => g + 1);
          setError(undefined);
        } catch (err) {
          fail(err);
        }
      }, RELOAD_GAP_MS),
    [fail],
  );

  const takeStatus = useCallback(
    (s: Status) => {
      setStatus(s);
      const print = fingerprint(s);
      if (print !== lastPrint.current) {
        lastPrint.current = print;
        reloadLists();
      }
    },
    [reloadLists],
  );

  /** Reads the status; its answer is taken unless the stream delivered one while it was out. */
  const readStatus = useCallback(() => {
    const current = order.read();
    api.status().then((s) => {
      if (current()) takeStatus(s);
    }, fail);
  }, [order, takeStatus, fail]);

  const refresh = useCallback(() => {
    readStatus();
    reloadLists();
  }, [readStatus, reloadLists]);

  useEffect(() => {
    refresh();
    const stop = followEvents({
      status: (s) => {
        order.streamed();
        takeStatus(s);
      },
      run: (run) => {
        setRuns((prev) => [run, ...prev.filter((r) => r.runId !== run.runId)].slice(0, 20));
        reloadLists();
      },
      mode: setLive,
    });
    return stop;
  }, [refresh, order, takeStatus, reloadLists]);

  useEffect(() => {
    if (live !== 'polling') return;
    const timer = setInterval(readStatus, POLL_MS);
    return () => clearInterval(timer);
  }, [live, readStatus]);

  return {
    ...(status ? { status } : {}),
    runs,
    live,
    ...(error ? { error } : {}),
    generation,
    refresh,
  };
}
