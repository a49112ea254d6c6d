import type { Command } from 'commander';
import { PlatctlError } from '../../core/errors.js';
import { printable, printableJson } from '../../core/terminal-text.js';
import { callControl, controlTarget } from '../ctl/client.js';
import { ACCEPTED, APPROVED, PLAN, RESET, RESOURCES, STATUS, SUSPENDED } from '../ctl/shapes.js';
import { hiddenAlias, outputOption } from '../flags.js';
import type { RegisterCommand } from './register.js';

interface CtlFlags {
  controller?: string;
  controlTokenFile?: string;
}

const out = (text: string): void => {
  process.stdout.write(text);
};
const json = (v: unknown): void => out(`${printableJson(JSON.stringify(v, null, 2))}\n`);

/**
 * `platctl ctl <verb>`: a running controller's control API from outside the pod. `status`
 * (source, revisions and a table of resources with condition and reason), `reconcile
 * [--with-source]`, `suspend`, `resume`, `diff` (the plan it would run now), `approve <run>`, `approve-prune <run>`
 * `reset-backoff <resource>` and `power <instance> on|off|reboot`. The controller comes from `--controller` or
 * `PLATCTL_CONTROLLER_URL`, the token from `--control-token-file` (once `--token-file`) or `PLATCTL_CONTROL_TOKEN`.
 */
export const registerCtl: RegisterCommand = (program: Command) => {
  const ctl = program
    .command('ctl')
    .description('Control a running controller: status, reconcile, suspend, resume, diff, ...')
    .option('--controller <url>', 'the controller (default $PLATCTL_CONTROLLER_URL)')
    .option(
      '--control-token-file <file>',
      'file holding the control token (default $PLATCTL_CONTROL_TOKEN)',
    );
  // the older spelling; the controller's own flag is --control-token-file
  hiddenAlias(ctl, '--token-file <file>', 'controlTokenFile');
  const target = () => controlTarget(ctl.opts<CtlFlags>());

  ctl
    .command('status')
    .description('Source, revisions and every resource with its condition and reason')
    .addOption(outputOption(['text', 'json']))
    .option('--condition <type>', 'only resources in this condition (Ready, Degraded, ...)')
    .action(async (flags: { output: string; condition?: string }) => {
      const t = target();
      const status = await callControl(t, 'GET', '/api/v1/status', STATUS);
      const query = `limit=1000${flags.condition ? `&condition=${encodeURIComponent(flags.condition)}` : ''}`;
      const list = await callControl(t, 'GET', `/api/v1/resources?${query}`, RESOURCES);
      if (flags.output === 'json') return json({ status, resources: list });
      const { renderResources, renderStatus } = await import('../ctl/render.js');
      out(`${renderStatus(status)}\n${renderResources(list.items)}`);
      if (list.total > list.items.length)
        out(`(${list.total - list.items.length} more not shown)\n`);
    });

  ctl
    .command('reconcile')
    .description('Run now (with --with-source: fetch the newest revision first)')
    .option('--with-source', 'fetch the source before reconciling')
    .action(async (flags: { withSource?: boolean }) => {
      await callControl(target(), 'POST', '/api/v1/reconcile', ACCEPTED, {
        withSource: flags.withSource === true,
      });
      out(`reconcile requested${flags.withSource ? ' (with source)' : ''}\n`);
    });

  for (const verb of ['suspend', 'resume'] as const) {
    ctl
      .command(verb)
      .description(
        verb === 'suspend'
          ? 'Make no change until resumed (kept across restarts)'
          : 'Lift a suspend and run now',
      )
      .action(async () => {
        const r = await callControl(target(), 'POST', `/api/v1/${verb}`, SUSPENDED);
        out(r.suspended ? 'suspended\n' : 'resumed\n');
      });
  }

  ctl
    .command('diff')
    .description('The plan the controller would run now (changes nothing)')
    .addOption(outputOption(['text', 'markdown', 'json']))
    .action(async (flags: { output: string }) => {
      const plan = await callControl(target(), 'GET', '/api/v1/diff', PLAN);
      if (flags.output === 'json') return json(plan);
      // the renderers are loaded when a plan is shown, not for --help
      const { renderPlanMarkdown, renderPlanText } = await import(
        '../../reconcile/render/index.js'
      );
      out(flags.output === 'markdown' ? renderPlanMarkdown(plan) : renderPlanText(plan));
    });

  ctl
    .command('approve-prune')
    .description('Approve the prune a run held back over --max-deletes')
    .argument('<run>', 'the run id shown by `platctl ctl status`')
    .action(async (run: string) => {
      await callControl(
        target(),
        'POST',
        `/api/v1/prunes/${encodeURIComponent(run)}/approve`,
        APPROVED,
      );
      out(`prune of run ${printable(run)} approved; the controller runs now\n`);
    });

  ctl
    .command('approve')
    .description('Approve what a run holds: its require-approval policy rules, else its prune')
    .argument('<run>', 'the run id shown by `platctl ctl status`')
    .action(async (run: string) => {
      await callControl(
        target(),
        'POST',
        `/api/v1/runs/${encodeURIComponent(run)}/approve`,
        APPROVED,
      );
      out(`run ${printable(run)} approved; the controller runs now\n`);
    });

  ctl
    .command('reset-backoff')
    .description('Forget the failures of a resource so the next run retries it')
    .argument('<resource>', 'identity key, e.g. Workspace/platform/dev')
    .action(async (key: string) => {
      await callControl(
        target(),
        'POST',
        `/api/v1/resources/${encodeURIComponent(key)}/reset-backoff`,
        RESET,
      );
      out(`backoff of ${printable(key)} reset\n`);
    });

  ctl
    .command('power')
    .description('Power a compute instance on or off, or reboot it, where git allows it now')
    .argument('<resource>', 'identity key, e.g. ComputeInstance/platform/dev/box')
    .argument('<action>', 'on, off or reboot')
    .action(async (key: string, action: string) => {
      const verb = powerVerb(key, action);
      // a 409 is what git does not allow now (a pinned state, a schedule, a change window,
      // suspended): the controller's reason is the error
      await callControl(
        target(),
        'POST',
        `/api/v1/resources/${encodeURIComponent(key)}/power`,
        ACCEPTED,
        { action: verb },
        `power ${verb} ${printable(key)}`,
      );
      out(`power ${verb} of ${printable(key)} requested; the controller runs now\n`);
    });
};

const POWER_VERBS = ['on', 'off', 'reboot'] as const;

/** `action` checked before any request, and `key` checked to name a compute instance. */
function powerVerb(key: string, action: string): (typeof POWER_VERBS)[number] {
  const verb = POWER_VERBS.find((v) => v === action);
  if (!verb) {
    throw new PlatctlError(
      'usage',
      `power: the action must be on, off or reboot, got ${JSON.stringify(printable(action))}`,
    );
  }
  const parts = key.split('/');
  if (parts[0] !== 'ComputeInstance' || parts.length !== 4 || parts.some((p) => p === '')) {
    throw new PlatctlError(
      'usage',
      `power: the resource must be a compute instance's key, ComputeInstance/<project>/<workspace>/<name>, got ${JSON.stringify(printable(key))}`,
    );
  }
  return verb;
}
