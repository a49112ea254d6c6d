import type { ControllerDiagnostic, RunReport, ValidationReport } from '../engine/ports.js';
import type { Snapshot } from '../sources/source.js';
import type { Rev } from '../status/status.js';
import type { StepPorts } from './ports.js';

const MAX_REJECTED = 5;

/** A snapshot as status shows its revision: the SHA with subject, author and time when known. */
export function revOf(snap: Snapshot): Rev {
  return { revision: snap.revision, ...(snap.commit ?? {}) };
}

/** A revision that validates but yields no manifest is rejected: a wrong or emptied `--path`. */
export function withManifests(v: ValidationReport, source: string): ValidationReport {
  if (!v.ok || v.manifestCount > 0) return v;
  const message = `no manifests found at ${source} in this revision: is --path right? (nothing is applied or pruned)`;
  return {
    ok: false,
    manifestCount: 0,
    diagnostics: [...v.diagnostics, { severity: 'error', code: 'no-manifests', message }],
  };
}

/** Remembers a rejected revision with its diagnostics and logs why, diagnostic by diagnostic. */
export function reject(
  snap: Snapshot,
  diagnostics: readonly ControllerDiagnostic[],
  ports: StepPorts,
  reason?: 'PolicyDenied',
): void {
  const { status, logger, clock } = ports;
  const revision = snap.revision;
  status.rejectedRevisions = [revision, ...status.rejectedRevisions].slice(0, MAX_REJECTED);
  status.rejected = [
    {
      revision,
      at: new Date(clock.now()).toISOString(),
      ...(reason ? { reason } : {}),
      diagnostics: [...diagnostics],
    },
    ...status.rejected.filter((r) => r.revision !== revision),
  ].slice(0, MAX_REJECTED);
  status.lastAttemptedRevision = revision;
  status.revisions.lastAttempted = revOf(snap);
  logger.warn(
    { event: 'revision-rejected', revision, diagnostics: diagnostics.length, reason },
    reason === 'PolicyDenied'
      ? 'denied by policy; keeping the last good revision'
      : 'manifests do not validate; keeping the last good revision',
  );
  for (const d of diagnostics) {
    logger.warn({ event: 'diagnostic', revision, code: d.code, at: d.at }, d.message);
  }
}

/**
 * A revision a `deny` policy rule refused (`report.policyDenied`): rejected like one that does
 * not validate, so the last good revision (`previous`) stays desired and is what later runs
 * reconcile. True when it was rejected; false when there is no other revision to fall back on
 * (the last good one is this one: then its run is only blocked).
 */
export function denyRevision(
  target: Snapshot,
  report: RunReport,
  previous: { snap?: Snapshot; revision?: string; rev?: Rev },
  ports: StepPorts,
): boolean {
  const denied = report.policyDenied ?? [];
  if (denied.length === 0) return false;
  if ((previous.snap?.revision ?? previous.revision) === target.revision) return false;
  const diagnostics: ControllerDiagnostic[] = denied.map((f) => ({
    severity: 'error',
    code: 'policy-denied',
    message: `${f.key}: policy ${f.policy} rule ${f.rule}: ${f.message}`,
    ...(f.at !== undefined ? { at: f.at } : {}),
  }));
  reject(target, diagnostics, ports, 'PolicyDenied');
  const { memory, status } = ports;
  status.lastDiagnostics = [...diagnostics];
  if (previous.snap) memory.lastGood = previous.snap;
  else delete memory.lastGood;
  status.lastGoodRevision = previous.revision;
  status.revisions.lastGood = previous.rev;
  return true;
}

/**
 * The last good snapshot while the newest revision is rejected: from memory, or after a restart
 * from the source at the persisted last good revision (I/O). Undefined when there is none.
 */
export async function lastGoodSnapshot(
  ports: StepPorts,
  signal: AbortSignal,
): Promise<Snapshot | undefined> {
  if (ports.memory.lastGood) return ports.memory.lastGood;
  const revision = ports.status.lastGoodRevision;
  if (revision === undefined || !ports.source.snapshotAt) return undefined;
  const snap = await ports.source.snapshotAt(revision, signal);
  if (snap) {
    ports.memory.lastGood = snap;
    ports.logger.info(
      { event: 'last-good-restored', revision },
      'the newest revision is rejected: reconciling the last good revision kept in the state store',
    );
  }
  return snap;
}
