import { DEFAULT_LIMITS, formatDiagnostics } from '../manifests/index.js';
import type { Plan } from '../model/plan.js';
import { createRunPorts, type EngineConfig } from '../reconcile/default-ports.js';
import {
  colors,
  renderOutcomesText,
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
  summarize,
} from '../reconcile/render/index.js';
import { reconcile } from '../reconcile/run.js';
import type { RunOptions, RunResult } from '../reconcile/run-types.js';
import { loadPrices } from '../usage/prices.js';
import { confirmOnTerminal } from './confirm.js';
import { type EngineFlags, useColor } from './engine-options.js';
import { parseVars } from './flags.js';
import { progressPrinter } from './progress.js';
import { readStdin } from './stdin.js';

/** What one `plan` or `apply` invocation needs beyond the shared flags. */
export interface EngineInvocation {
  readonly mode: 'plan' | 'apply';
  readonly paths: readonly string[];
  readonly flags: EngineFlags;
  readonly config: EngineConfig;
  readonly autoApprove?: boolean;
  /** Show the plan before applying it. False when it was just shown (the demo). @default true */
  readonly showPlan?: boolean;
  readonly lockTimeoutMs?: number;
  /** How this command waits longer for a held lease (its flag), for the `locked` message. */
  readonly lockWaitHint?: string;
  /** `require-approval` policy rules approved for this apply (`--approve-policy`). */
  readonly approvedPolicies?: readonly string[];
  /** Apply actions outside their change window, for this reason (`--outside-window`). */
  readonly outsideWindow?: string;
  readonly stdout?: NodeJS.WriteStream;
  readonly stderr?: NodeJS.WriteStream;
}

/**
 * Runs the engine for the CLI (I/O): prints diagnostics or the plan in the chosen format, asks
 * for confirmation on a terminal, shows progress on standard error, and stops gracefully on the
 * first Ctrl-C / SIGTERM (a second one interrupts waits). Returns the result; the caller maps it
 * to an exit code.
 */
export async function runEngine(inv: EngineInvocation): Promise<RunResult> {
  const stdout = inv.stdout ?? process.stdout;
  const stderr = inv.stderr ?? process.stderr;
  const color = inv.flags.output === 'text' && useColor(stdout);
  const soft = new AbortController();
  const hard = new AbortController();
  const onSignal = () => {
    if (soft.signal.aborted) return hard.abort();
    stderr.write('stopping: no new action starts; running ones finish (again to interrupt)\n');
    soft.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const progress = progressPrinter(stderr, {
    color: useColor(stderr),
    tty: stderr.isTTY === true,
    verbose: inv.flags.verbose === true,
  });
  let started: number | undefined;
  const ports = createRunPorts({
    ...inv.config,
    events: progress,
    signal: soft.signal,
    hardSignal: hard.signal,
  });
  // JSON is one document, written once at the end (with the outcomes after an apply); a JSON
  // apply that must ask shows the plan as text on standard error first.
  const json = inv.flags.output === 'json';
  let shown = inv.showPlan === false;
  const show = (plan: Plan) => {
    shown = true;
    stdout.write(render(plan, inv.flags.output, color));
  };
  const options: RunOptions = {
    paths: inv.paths,
    mode: inv.mode,
    vars: parseVars(inv.flags.var),
    varFiles: inv.flags.varFile,
    ...(inv.flags.prune ? { prune: true } : {}),
    ...(inv.flags.maxDeletes ? { maxDeletes: inv.flags.maxDeletes } : {}),
    ...(inv.flags.forceDeletes ? { forceDeletes: true } : {}),
    ...(inv.flags.concurrency ? { concurrency: inv.flags.concurrency } : {}),
    ...(inv.lockTimeoutMs ? { lockTimeoutMs: inv.lockTimeoutMs } : {}),
    ...(inv.lockWaitHint ? { lockWaitHint: inv.lockWaitHint } : {}),
    ...(inv.approvedPolicies ? { approvedPolicies: inv.approvedPolicies } : {}),
    ...(inv.outsideWindow ? { outsideWindow: inv.outsideWindow } : {}),
    ...(inv.flags.prices ? { prices: await loadPrices(inv.flags.prices) } : {}),
    approve: async (plan) => {
      if (!json && !shown) show(plan);
      if (!inv.autoApprove && json) stderr.write(renderPlanText(plan, colors(useColor(stderr))));
      const approved = inv.autoApprove || (await confirm(stderr, plan));
      if (approved) {
        started = Date.now();
        progress.begin(plan.actions.filter((a) => a.type !== 'noop').length);
      }
      return approved;
    },
  };
  const stdin = inv.paths.includes('-') ? await readStdin(DEFAULT_LIMITS.maxFileBytes) : undefined;
  try {
    const result = await reconcile(
      stdin === undefined ? options : { ...options, stdin },
      ports,
    ).finally(() => progress.end());
    const took = started === undefined ? undefined : Date.now() - started;
    // every diagnostic, warnings of valid manifests too (an empty directory, no declared VPC)
    if (result.diagnostics.length > 0) {
      stderr.write(
        formatDiagnostics(result.diagnostics as never, 'human', { color: useColor(stderr) }),
      );
    }
    if (result.status === 'invalid') {
      const live = result.diagnostics.some((d) => d.code === 'unknown-project');
      stderr.write(
        live
          ? 'Manifests name what the platform does not know; nothing was changed.\n'
          : 'Manifests are invalid; nothing was sent to the platform.\n',
      );
    } else if (json && result.plan) {
      stdout.write(renderPlanJson(result.plan, result.outcomes));
    } else if (result.plan && !shown) {
      show(result.plan);
    }
    if (result.outcomes && result.status !== 'in-sync' && inv.flags.output !== 'json') {
      stdout.write(renderOutcomesText(result.outcomes, colors(color), took));
    }
    if (result.status === 'blocked') stderr.write('The plan has errors; nothing was changed.\n');
    if (result.status === 'declined') stderr.write('Apply cancelled.\n');
    return result;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await ports.close();
  }
}

function render(plan: Plan, output: EngineFlags['output'], color: boolean): string {
  if (output === 'json') return renderPlanJson(plan);
  if (output === 'markdown') return renderPlanMarkdown(plan);
  return renderPlanText(plan, colors(color));
}

/** The confirmation question, repeating the plan's counts (its summary may have scrolled away). */
export function confirmQuestion(plan: Plan): string {
  const s = summarize(plan);
  return `Apply ${s.create} to create, ${s.update} to update, ${s.delete} to delete? Only "yes" is accepted: `;
}

/** Asks on the terminal; refuses (false) when standard input is not one. */
function confirm(stderr: NodeJS.WriteStream, plan: Plan): Promise<boolean> {
  return confirmOnTerminal(
    confirmQuestion(plan),
    'Not a terminal: pass --auto-approve to apply without confirmation.',
    stderr,
  );
}

/**
 * Exit code of a run: 1 on any error or failure, or a plan that could not read every resource;
 * 2 for pending changes with `detailed`.
 */
export function exitCodeOf(result: RunResult, detailed = false): number {
  if (result.plan?.unreadable) return 1;
  switch (result.status) {
    case 'invalid':
    case 'blocked':
    case 'failed':
    case 'aborted':
    case 'declined':
      return 1;
    case 'planned':
      return detailed && result.changes ? 2 : 0;
    case 'in-sync':
    case 'applied':
      return 0;
    default: {
      const never: never = result.status;
      return never;
    }
  }
}
