import type { StatusView } from '../../controller/http/control-views.js';
import type { ResourceCondition } from '../../controller/status/conditions.js';
import type { Rev } from '../../controller/status/status.js';
import { printable } from '../../core/terminal-text.js';
import { gpuLines } from '../../reconcile/gpu.js';

const short = (r: Rev | undefined) =>
  r ? `${r.revision.slice(0, 12)}${r.message ? ` ${r.message}` : ''}` : '-';

/**
 * The header of `platctl ctl status`: source, revisions and what needs a person (pure). Each line
 * is printable: commit messages, diagnostics and errors come from git and the platform.
 */
export function renderStatus(s: StatusView): string {
  const src = s.source.dir ?? `${s.source.repo}#${s.source.branch}:${s.source.path}`;
  const c = s.counts;
  const lines = [
    `source:       ${src} (${s.sourceReady ? 'ready' : 'NOT READY'})`,
    `role:         ${s.role}${s.suspended ? ', SUSPENDED' : ''}${s.dryRun ? ', dry-run' : ''}${s.selfHeal ? '' : ', self-heal off'}`,
    `fetched:      ${short(s.revisions.fetched)}`,
    `last good:    ${short(s.revisions.lastGood)}`,
    `last applied: ${short(s.revisions.lastApplied)}`,
    `last run:     ${s.lastResult ?? '-'}${s.lastRunAt ? ` at ${s.lastRunAt}` : ''}${s.nextRunInMs !== undefined ? `, next in ${Math.round(s.nextRunInMs / 1000)}s` : ''}`,
    `resources:    ${c.total} (${c.Ready} Ready, ${c.Progressing} Progressing, ${c.Degraded} Degraded, ${c.Drifted} Drifted, ${c.Suspended} Suspended, ${c.Orphaned ?? 0} Orphaned)`,
  ];
  if (s.lastError) lines.push(`error:        ${s.lastError}`);
  if (s.blockedPrune) {
    lines.push(
      `prune held:   ${s.blockedPrune.count} deletions over the limit of ${s.blockedPrune.limit}; approve with: platctl ctl approve-prune ${s.blockedPrune.runId}`,
    );
  }
  if (s.heldPolicy) {
    lines.push(
      `policy held:  rule(s) ${s.heldPolicy.rules.join(', ')} need approval; approve with: platctl ctl approve ${s.heldPolicy.runId}`,
      ...s.heldPolicy.findings.map((f) => `  ${f.at ? `${f.at}: ` : ''}${f.key}: ${f.message}`),
    );
  }
  if (s.windowHolds) {
    const windows = [...new Set(s.windowHolds.map((h) => h.window))].join(', ');
    lines.push(
      `window held:  ${s.windowHolds.length} action(s) held until ${s.heldUntil ?? 'a window opens'} (${windows})`,
    );
  }
  if (s.leftOnPlatform) lines.push(...renderLeft(s.leftOnPlatform));
  if (s.shards) lines.push(...renderShards(s.shards));
  for (const r of s.rejected.slice(0, 1)) {
    const why = r.reason === 'PolicyDenied' ? ' (denied by policy)' : '';
    lines.push(`rejected:     ${r.revision.slice(0, 12)} at ${r.at}${why}`);
    for (const d of r.diagnostics) {
      const at = [d.file, d.line, d.column].filter((x) => x !== undefined && x !== '').join(':');
      lines.push(`  ${d.severity}: ${at ? `${at}: ` : ''}${d.message}`);
    }
  }
  return `${lines.map((l) => printable(l)).join('\n')}\n`;
}

/** Found objects removed from git, what their compute keeps running, and what to do (pure). */
function renderLeft(left: NonNullable<StatusView['leftOnPlatform']>): string[] {
  const kept = left.gpu ? gpuLines(left.gpu, true) : [];
  return [
    `left:         ${left.keys.length} ${left.message}`,
    ...kept.map((l) => `  still running: ${l}`),
  ];
}

/** Which replica holds which shards, this one marked (pure). */
function renderShards(sh: NonNullable<StatusView['shards']>): string[] {
  const budget = sh.rps !== undefined ? `; ${sh.rps} requests/s shared by all replicas` : '';
  return [
    `shards:       by ${sh.by}; this replica holds ${sh.held.length}${budget}`,
    ...sh.replicas.map(
      (r) =>
        `  ${r.id === sh.replica ? '*' : ' '} ${r.id}: ${r.shards.length === 0 ? '-' : r.shards.join(', ')}`,
    ),
  ];
}

/** The resource table, like `flux get`: KEY, CONDITION, REASON, MESSAGE (pure; cells printable). */
export function renderResources(items: readonly ResourceCondition[]): string {
  const rows = [
    ['RESOURCE', 'CONDITION', 'REASON', 'MESSAGE'],
    ...items.map((r) =>
      [r.key, r.condition, r.reason, (r.message ?? '').replace(/\s+/g, ' ')].map((cell) =>
        printable(cell),
      ),
    ),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  return `${rows
    .map((row) =>
      row
        .map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
