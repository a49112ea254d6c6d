import type { CDPSession } from 'playwright-core';

/** A trace event as Chromium's JSON trace format writes it (complete events only are summed). */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** What the renderer's main thread did during a trace: its CPU time, and self time per event. */
export interface MainThread {
  /** CPU time (ms) of the main thread's top-level tasks: what the load average does not inflate. */
  readonly cpuMs: number;
  /** Wall time (ms) of those tasks. */
  readonly busyMs: number;
  /** Self wall time (ms) per event name (`UpdateLayoutTree` is style, `Layout`, `Paint`...). */
  readonly self: Map<string, number>;
}

/**
 * Starts a trace of the page's timeline (I/O: the DevTools protocol); the function it resolves
 * to ends it and sums the renderer main thread's events.
 */
export async function startTrace(cdp: CDPSession): Promise<() => Promise<MainThread>> {
  const events: TraceEvent[] = [];
  const collect = (e: { value: object[] }) => events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8',
    transferMode: 'ReportEvents',
  });
  return async () => {
    const complete = new Promise<void>((done) => cdp.once('Tracing.tracingComplete', () => done()));
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
    return mainThread(events);
  };
}

function mainThread(events: readonly TraceEvent[]): MainThread {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const own = events
    .filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: { end: number; name: string; self: number }[] = [];
  let cpuMs = 0;
  let busyMs = 0;
  const pop = () => {
    const done = stack.pop()!;
    self.set(done.name, (self.get(done.name) ?? 0) + done.self / 1000);
  };
  for (const e of own) {
    while (stack.length > 0 && stack.at(-1)!.end <= e.ts) pop();
    const parent = stack.at(-1);
    if (parent) parent.self -= e.dur!;
    else {
      cpuMs += (e.tdur ?? 0) / 1000;
      busyMs += e.dur! / 1000;
    }
    stack.push({ end: e.ts + e.dur!, name: e.name, self: e.dur! });
  }
  while (stack.length > 0) pop();
  return { cpuMs, busyMs, self };
}
