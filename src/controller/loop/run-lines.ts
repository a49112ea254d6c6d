import { type Logger, logTaken } from '../../core/logger.js';
import type { ResourceReport, RunReport } from '../engine/ports.js';

/** How many resources' lines are written between two looks at what the destination took. */
const BATCH = 256;

/**
 * Logs the lines of each resource of `report` that did something, in the report's order: a
 * `resource-failed` warning with its backoff (`backoffMs`, by report entry) for a failure, then
 * the `resource` line of every action but a noop (I/O: the logger). Between batches it waits for
 * the log's destination to take what was written and beats `beat`: a first apply of 100,000 wrote
 * its 100,000 lines in one stretch, and all but the pipe's 64 KB waited in memory until the stretch
 * ended (30 MB of strings, at a heap limit of 256 MB). A destination that takes nothing stops
 * the beats, as a stuck request does.
 */
export async function logResources(
  report: RunReport,
  revision: string,
  logger: Logger,
  backoffMs: ReadonlyMap<ResourceReport, number>,
  beat: () => void,
): Promise<void> {
  let written = 0;
  for (const r of report.resources) {
    const delay = backoffMs.get(r);
    if (r.outcome === 'failed') {
      logger.warn(
        { event: 'resource-failed', revision, resource: r.key, action: r.action, backoffMs: delay },
        r.error ?? 'failed',
      );
    }
    if (r.action === 'noop') continue;
    logger.info(
      { event: 'resource', revision, resource: r.key, action: r.action, outcome: r.outcome },
      r.message,
    );
    if (++written % BATCH === 0) {
      await logTaken(logger);
      beat();
    }
  }
}
