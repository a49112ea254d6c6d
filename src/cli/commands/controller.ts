import { type Command, Option } from 'commander';
import type { ControllerFlags } from '../controller-run.js';
import { dialectOption, positive } from '../engine-options.js';
import { STATE_HELP, variableOptions } from '../flags.js';
import { absolutePath } from '../paths.js';
import type { RegisterCommand } from './register.js';

/**
 * `platctl controller`: follows a git branch (or watches a directory) and keeps the platform
 * converged until SIGTERM/SIGINT, serving health, readiness, metrics, status and a webhook.
 * Credentials come from the environment or mounted files only.
 */
export const registerController: RegisterCommand = (program: Command) => {
  const cmd = program
    .command('controller')
    .description('Run as a controller: follow a git branch and keep the platform converged')
    .option(
      '--repo <url-or-path>',
      'git repository to follow (credentials: $PLATCTL_GIT_TOKEN or --git-credentials-file)',
    )
    .option('--branch <name>', 'branch to follow', 'main')
    .option('--path <dir>', 'directory of manifests inside the repository', '.')
    .option('--watch <dir>', 'watch a local directory instead of a repository', absolutePath)
    .option('--interval <duration>', 'resync interval (drift is checked on each)', '5m')
    .option('--run-timeout <duration>', 'longest a run may take before it is stopped', '30m')
    .option('--self-heal', 'correct drift', true)
    .option('--no-self-heal', 'only report drift')
    .option('--dry-run', 'plan and report only; change nothing')
    .option('--suspend', 'make no change (the file .platctl-suspend in the path does the same)')
    .option('--prune', 'delete resources platctl created that are no longer in git')
    .option(
      '--max-deletes <n>',
      'most prune deletions per run (default 5)',
      positive('--max-deletes'),
    )
    .option(
      '--listen <host:port>',
      'HTTP server for probes, metrics, status and webhooks',
      '0.0.0.0:8080',
    )
    .option(
      '--webhook-secret-file <file>',
      'shared secret of POST /hooks/git (or $PLATCTL_WEBHOOK_SECRET)',
      absolutePath,
    )
    .option(
      '--control-token-file <file>',
      'bearer token of the control API /api/v1 (or $PLATCTL_CONTROL_TOKEN); without one it is off',
      absolutePath,
    )
    .option(
      '--git-credentials-file <file>',
      'mounted token or SSH private key for the repository',
      absolutePath,
    )
    .option(
      '--notifications <file>',
      'alerts to webhooks, Slack and commit statuses (YAML or JSON; docs/operations.md)',
      absolutePath,
    )
    .option(
      '--known-hosts <file>',
      'SSH host keys to accept for the repository, and no others (default: trust on first use)',
      absolutePath,
    )
    .option(
      '--prices <file>',
      "price file: the dashboard's usage costs and GPUs per compute profile",
      absolutePath,
    )
    .option('--state <path|url>', STATE_HELP)
    .option(
      '--cache-dir <dir>',
      'where the clone and snapshots live (default next to the state)',
      absolutePath,
    )
    .option('--base-url <url>', 'platform URL (default $PLATCTL_BASE_URL)')
    .option(
      '--api-key-file <file>',
      'file holding the API key (default $PLATCTL_API_KEY)',
      absolutePath,
    )
    .addOption(dialectOption())
    .option('--rps <n>', 'requests per second to the platform', positive('--rps'))
    .option(
      '--concurrency <n>',
      'actions and requests in flight at once (default 4 actions, 8 requests)',
      positive('--concurrency'),
    )
    .option('--lease-ttl <duration>', 'state lease lifetime; a standby takes over after it', '15s')
    .option(
      '--shutdown-timeout <duration>',
      'on SIGTERM, cut waits still running after this long (keep it below terminationGracePeriodSeconds)',
      '25s',
    )
    .option(
      '--liveness-threshold <duration>',
      '/healthz fails (503) when the loop makes no progress for this long',
      '5m',
    )
    .addOption(
      new Option(
        '--shard-by <what>',
        'replicas on one PostgreSQL state split the work: each reconciles its share of the projects',
      ).choices(['project']),
    )
    .addOption(
      new Option('--log-level <level>', 'JSON log level')
        .choices(['debug', 'info', 'warn', 'error'])
        .default('info'),
    );
  variableOptions(cmd, absolutePath).action(async (flags: ControllerFlags) => {
    // the controller and its stores are loaded when it runs, not for --help
    await (await import('../controller-run.js')).runController(flags);
  });
};
