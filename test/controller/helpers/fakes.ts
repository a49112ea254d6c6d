import { Writable } from 'node:stream';
import { afterEach } from 'vitest';
import type {
  ReconcileRun,
  RunReport,
  RunRequest,
  ValidatePort,
} from '../../../src/controller/engine/ports.js';
import type { LeasePort } from '../../../src/controller/leadership/lease-port.js';
import type { ControllerLoop } from '../../../src/controller/loop/loop.js';
import type { StepOutcome } from '../../../src/controller/loop/ports.js';
import type { Snapshot, Source } from '../../../src/controller/sources/source.js';
import { ControllerMetrics } from '../../../src/controller/status/metrics.js';
import { initialStatus } from '../../../src/controller/status/status.js';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/logger.js';

/** A run's report with these resources and nothing else: no inventory, diagnostics or drift. */
export function runReport(resources: RunReport['resources'] = []): RunReport {
  return {
    resources,
    inventory: [],
    diagnostics: [],
    drift: [],
    blocked: false,
    interrupted: false,
  };
}

/** Collects JSON log lines in memory. */
export function memoryLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  return { logger: createLogger({ destination, level: 'debug' }), lines };
}

/** A source whose newest revision the test sets. */
export class FakeSource implements Source {
  readonly description = 'fake';
  current: Snapshot = { revision: 'r1', dir: '/fake/r1', suspendFile: false };
  fetches = 0;
  failNext = false;
  set(revision: string, suspendFile = false): void {
    this.current = { revision, dir: `/fake/${revision}`, suspendFile };
  }
  async fetch(): Promise<Snapshot> {
    this.fetches++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('remote hung up');
    }
    return this.current;
  }
  async retain(): Promise<void> {}
}

/** A lease shared by fake replicas: the first to ask holds it until it releases. */
export class FakeLeaseBoard {
  holderId: string | undefined;
  port(id: string): LeasePort {
    return {
      tryAcquire: async () => {
        if (this.holderId === undefined || this.holderId === id) {
          this.holderId = id;
          return true;
        }
        return false;
      },
      holder: async () => (this.holderId !== id ? this.holderId : undefined),
      release: async () => {
        if (this.holderId === id) this.holderId = undefined;
      },
    };
  }
}

/** Validation by directory name: `/fake/bad*` is invalid, `/fake/empty*` has no manifests. */
const fakeValidate: ValidatePort = async (dir) => {
  if (dir.includes('bad')) {
    return {
      ok: false,
      manifestCount: 1,
      diagnostics: [
        { severity: 'error', code: 'yaml-syntax', message: 'bad indent', at: 'a.yaml:3:1' },
      ],
    };
  }
  return { ok: true, manifestCount: dir.includes('empty') ? 0 : 2, diagnostics: [] };
};

/** Records every run request; `respond` decides the report. */
export function recordingRun(
  respond?: (req: RunRequest, signal: AbortSignal, hard?: AbortSignal) => Promise<RunReport>,
) {
  const calls: RunRequest[] = [];
  const run: ReconcileRun = async (req, signal, hard) => {
    calls.push(req);
    if (respond) return respond(req, signal, hard);
    return runReport();
  };
  return { run, calls };
}

/** Resolves with the next step outcome matching `pred`, or rejects after `ms`. */
export function nextStep(
  loop: ControllerLoop,
  pred: (o: StepOutcome) => boolean = () => true,
  ms = 5000,
): Promise<StepOutcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error('no matching step in time'));
    }, ms);
    const off = loop.onStep((o) => {
      if (!pred(o)) return;
      clearTimeout(timer);
      off();
      resolve(o);
    });
  });
}

export function loopPorts(source: Source, run: ReconcileRun, lease: LeasePort) {
  const { logger, lines } = memoryLogger();
  const status = initialStatus('fake', { suspended: false, dryRun: false, selfHeal: true });
  return {
    ports: {
      source,
      validate: fakeValidate,
      run,
      clock: systemClock,
      logger,
      metrics: new ControllerMetrics(),
      status,
      lease,
    },
    lines,
    status,
  };
}

export const baseOptions = {
  intervalMs: 60_000,
  runTimeoutMs: 10_000,
  selfHeal: true,
  dryRun: false,
  suspend: false,
  prune: true,
  backoff: { baseMs: 20, maxMs: 200 },
  leasePollMs: 20,
};

/**
 * Stops, after each test, the loops that test registered (call once at a file's top level);
 * returns the registration, which hands the loop back.
 */
export function stopLoopsAfterEach(): (loop: ControllerLoop) => ControllerLoop {
  const loops: ControllerLoop[] = [];
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((l) => l.stop()));
  });
  return (loop) => {
    loops.push(loop);
    return loop;
  };
}
