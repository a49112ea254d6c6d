import { printable } from '../core/terminal-text.js';
import type { RunEvent } from '../reconcile/events.js';
import { colors, describe, duration } from '../reconcile/render/text.js';

/** The CLI's event sink, plus the overall line of an apply between `begin` and `end`. */
export interface ProgressPrinter {
  (e: RunEvent): void;
  /** Execution starts with `total` actions to run: the overall line counts against it. */
  begin(total: number): void;
  /** Execution is over: the overall line is cleared (terminal) and its timer stopped. */
  end(): void;
  /** What the timer does: redraw the live line (terminal), or print the overall line when due. */
  tick(): void;
}

export interface ProgressOptions {
  readonly color?: boolean;
  /** A line for every action's start and finish, and observation counts. @default false */
  readonly verbose?: boolean;
  /** Without `verbose`, an apply of at most this many actions still gets a line per action. @default 100 */
  readonly eachActionUpTo?: number;
  /**
   * Redraw one overall line in place, long waits on it (a terminal); else print the overall line
   * every minute and a line per long wait every 30 s. @default false
   */
  readonly tty?: boolean;
  /** @default Date.now */
  readonly now?: () => number;
  /** Tick on a timer (every second on a terminal); false: only {@link ProgressPrinter.tick}. @default true */
  readonly timers?: boolean;
}

const t = (text: string) => printable(text);

/** How often the overall line is printed off a terminal, and redrawn at most on one. */
const SUMMARY_MS = 60_000;
const REDRAW_MS = 100;
/** Off a terminal, a wait in the same state gets a line this often (elapsed and expected time). */
const WAIT_LINE_MS = 30_000;

/** What a running action waits for: the message without its seconds, since when, how long usually. */
interface Wait {
  readonly text: string;
  readonly since: number;
  readonly expectedMs?: number;
}

/**
 * Renders engine events (I/O: writes to `out`): failures and adoptions as lines; during an apply,
 * one overall line — `3 of 12 done, 2 running, 7 waiting, 1m05s elapsed; waiting for VPC
 * service p/vpc: deploying, 20s (typically 30s)` — kept live at the bottom of a terminal, where
 * long waits show only there; elsewhere the overall line every minute and at the end, and each
 * wait a line when its state changes and every 30 s, with its elapsed and typical time (a
 * five-minute instance: about a dozen lines, not one per poll). Keys, messages and errors are
 * printed escaped (`core/terminal-text.ts`): the platform words its own errors and states. Each action's start and
 * success and skips get a line when the apply is small enough to read (`eachActionUpTo`) or
 * `verbose`; observation counts only when `verbose`. An apply of 10,000 prints a few lines, not
 * 20,000 (the rest is in the outcome summary).
 */
export function progressPrinter(
  out: NodeJS.WritableStream,
  options: ProgressOptions = {},
): ProgressPrinter {
  const c = colors(options.color ?? false);
  const now = options.now ?? Date.now;
  const tty = options.tty ?? false;
  const run = { total: 0, done: 0, running: 0, started: 0, active: false };
  const verbose = options.verbose ?? false;
  // whether each action gets its lines: decided by the apply's size at `begin`
  let perAction = verbose;
  let timer: NodeJS.Timeout | undefined;
  let lastOverall = 0;
  let lastDrawn = 0;
  // what the running actions wait for, by action id, oldest first
  const waits = new Map<string, Wait>();
  const typically = (w: { expectedMs?: number }) =>
    w.expectedMs === undefined ? '' : `typically ${duration(w.expectedMs)}`;
  const overall = () => {
    const head = `${run.done} of ${run.total} done, ${run.running} running, ${run.total - run.done - run.running} waiting, ${duration(now() - run.started)} elapsed`;
    const [first, ...more] = waits.values();
    if (first === undefined) return head;
    // live, the wait's own clock and what it usually takes; a log line has them on its wait lines
    const usual = typically(first);
    const clock = tty ? `, ${duration(now() - first.since)}${usual ? ` (${usual})` : ''}` : '';
    return `${head}; ${first.text}${clock}${more.length ? ` (+${more.length} more)` : ''}`;
  };
  const clear = () => {
    if (tty && run.active) out.write('\r\u001b[K');
  };
  const redraw = () => {
    if (!tty || !run.active) return;
    lastDrawn = now();
    out.write(c.cyan(overall()));
  };
  const line = (text: string) => {
    clear();
    out.write(text);
    redraw();
  };
  // one line per wait state, then one every 30 s: long waits show their elapsed time, not noise
  const lastShown = new Map<string, { message: string; at: number }>();
  const worthShowing = (id: string, message: string, elapsedMs: number) => {
    const state = message.replace(/[\d.]+\s*(ms|s|m)\b/g, '');
    const last = lastShown.get(id);
    if (last && last.message === state && elapsedMs - last.at < WAIT_LINE_MS) return false;
    lastShown.set(id, { message: state, at: elapsedMs });
    return true;
  };
  const progress = (e: Extract<RunEvent, { type: 'progress' }>) => {
    // the wait's own seconds are dropped: the elapsed time is said once, from the event
    const text = t(e.message.replace(/,?\s*[\d.]+\s*(ms|s|m)$/, ''));
    const waiting = text.startsWith('waiting for ');
    if (waiting) {
      const expected = e.expectedMs !== undefined ? { expectedMs: e.expectedMs } : {};
      waits.set(e.action.id, { text, since: now() - e.elapsedMs, ...expected });
    }
    if (waiting && tty && run.active) {
      // on a terminal the live line shows the wait, ticking; no line of its own
      if (now() - lastDrawn >= REDRAW_MS) {
        clear();
        redraw();
      }
      return;
    }
    if (!worthShowing(e.action.id, text, e.elapsedMs)) return;
    const usual = typically(e);
    const times = `${duration(e.elapsedMs)} elapsed${usual ? `, ${usual}` : ''}`;
    line(c.dim(`${t(e.action.key)}: ${text} [${times}]\n`));
  };
  const print = (e: RunEvent) => {
    switch (e.type) {
      case 'observe':
        if (options.verbose) line(c.dim(`observed ${e.count} ${e.kind}\n`));
        return;
      case 'adopted':
        line(`${t(e.key)}: adopted (created by an interrupted run)\n`);
        return;
      case 'found':
        line(
          `${t(e.key)}: found, not created by platctl (an interrupted create could not be proven ours)\n`,
        );
        return;
      case 'start':
        if (e.action.type !== 'noop') run.running++;
        if (perAction) line(`${t(e.action.key)}: ${t(describe(e.action))}...\n`);
        return;
      case 'progress':
        progress(e);
        return;
      case 'finish':
        finish(e);
        return;
      case 'stopping':
        line(c.yellow(`stopping: ${t(e.reason)}\n`));
        return;
      default: {
        const never: never = e;
        return never;
      }
    }
  };
  const finish = (e: Extract<RunEvent, { type: 'finish' }>) => {
    const o = e.outcome;
    if (e.action.type === 'noop') return;
    if (o.status !== 'skipped' && o.status !== 'not-started') run.running--;
    run.done++;
    waits.delete(e.action.id);
    const what = `${t(e.action.key)}: ${t(describe(e.action))}`;
    if (o.status === 'failed') line(c.red(`${what} failed: ${t(o.error)}\n`));
    else if (!perAction) {
      // the live line says it; redrawn at most every REDRAW_MS, the timer does the rest
      if (tty && run.active && now() - lastDrawn >= REDRAW_MS) {
        clear();
        redraw();
      }
    } else if (o.status === 'succeeded') line(c.green(`${what} done [${duration(o.elapsedMs)}]\n`));
    else if (o.status === 'skipped') line(c.yellow(`${what} skipped (${t(o.because)} failed)\n`));
    // off a terminal the overall line is a log line: every 10 s at most, and the last one
    if (!tty && run.active && (now() - lastOverall >= SUMMARY_MS || run.done === run.total)) {
      summary();
    }
  };
  const summary = () => {
    lastOverall = now();
    out.write(c.dim(`${overall()}\n`));
  };
  const tick = () => {
    if (!run.active) return;
    if (tty) {
      clear();
      redraw();
    } else if (now() - lastOverall >= SUMMARY_MS) summary();
  };
  return Object.assign(print, {
    begin(total: number) {
      Object.assign(run, { total, done: 0, running: 0, started: now(), active: true });
      perAction = verbose || total <= (options.eachActionUpTo ?? 100);
      lastOverall = run.started;
      if (tty) redraw();
      // a terminal's line ticks every second; elsewhere a summary comes every minute while
      // actions wait, even when none finishes
      if (options.timers === false) return;
      timer = setInterval(tick, tty ? 1000 : SUMMARY_MS);
      timer.unref();
    },
    tick,
    end() {
      if (timer) clearInterval(timer);
      clear();
      run.active = false;
    },
  });
}
