import { type Command, Option } from 'commander';
import {
  defaultCacheDir,
  type SourceConfig,
  startController,
} from '../../controller/controller.js';
import { parseDuration } from '../../controller/duration.js';
import type { NotificationConfig } from '../../controller/notify/config.js';
import { SecretFile, type SecretValue } from '../../controller/secrets/secret-file.js';
import { PlatctlError } from '../../core/errors.js';
import { createLogger, type Logger } from '../../core/logger.js';
import { formatDiagnostics } from '../../manifests/diagnostics.js';
import { resolveStateTarget } from '../../state/index.js';
import { dialectFrom, dialectOption, positive } from '../engine-options.js';
import { parseVars, STATE_HELP, variableOptions } from '../flags.js';
import { absolutePath, absoluteRepo, absoluteState } from '../paths.js';
import type { RegisterCommand } from './register.js';

interface ControllerFlags {
  repo?: string;
  branch: string;
  path: string;
  watch?: string;
  interval: string;
  runTimeout: string;
  selfHeal: boolean;
  dryRun?: boolean;
  suspend?: boolean;
  prune?: boolean;
  maxDeletes?: number;
  listen: string;
  webhookSecretFile?: string;
  controlTokenFile?: string;
  gitCredentialsFile?: string;
  knownHosts?: string;
  notifications?: string;
  state?: string;
  cacheDir?: string;
  baseUrl?: string;
  apiKeyFile?: string;
  dialect?: string;
  rps?: number;
  concurrency?: number;
  leaseTtl: string;
  livenessThreshold: string;
  shardBy?: 'project';
  shutdownTimeout: string;
  logLevel: string;
  var: string[];
  varFile: string[];
}

/**
 * A credential from its mounted file, re-read on use when the file changes (rotation without a
 * restart); reloads are logged without the value. Fails the start when the file is unusable.
 */
async function fileSecret(path: string, what: string, logger: Logger): Promise<SecretValue> {
  const file = new SecretFile(path, what, {
    onEvent: (e) =>
      e.type === 'reloaded'
        ? logger.info({ event: 'credential-reloaded', credential: what }, `${what} re-read`)
        : logger.warn(
            { event: 'credential-unusable', credential: what, reason: e.reason },
            `${what} file ${e.reason}: keeping the value read before`,
          ),
  });
  await file.load();
  return file.value;
}

/**
 * The validated notifications file; every problem at `file:line:col` before anything starts. The
 * notification modules are imported only when a file is given: a controller without one never
 * loads them.
 */
async function notificationsOf(file: string) {
  const { loadNotifications } = await import('../../controller/notify/config.js');
  const { config, diagnostics } = loadNotifications(file);
  if (config) return config;
  throw new PlatctlError(
    'config',
    `notifications file ${file} is invalid:\n${formatDiagnostics(diagnostics, 'human').trimEnd()}`,
  );
}

/** The files holding the controller's own credentials: no manifest's password may read them. */
function credentialFiles(
  flags: ControllerFlags,
  notifications: NotificationConfig | undefined,
): string[] {
  const named = [
    flags.apiKeyFile,
    flags.webhookSecretFile,
    flags.controlTokenFile,
    flags.gitCredentialsFile,
    flags.notifications,
    ...(notifications?.providers ?? []).flatMap((p) => [p.urlFile, p.tokenFile, p.secretFile]),
  ];
  return named.filter((f): f is string => f !== undefined);
}

function sourceOf(flags: ControllerFlags): SourceConfig {
  if (flags.watch !== undefined && flags.repo !== undefined) {
    throw new PlatctlError('usage', 'pass either --repo or --watch, not both');
  }
  if (flags.watch !== undefined) return { kind: 'dir', dir: flags.watch };
  if (flags.repo === undefined)
    throw new PlatctlError('usage', 'pass --repo <url-or-path> or --watch <dir>');
  const token = process.env.PLATCTL_GIT_TOKEN;
  return {
    kind: 'git',
    repo: absoluteRepo(flags.repo),
    branch: flags.branch,
    path: flags.path,
    ...(token ? { token } : {}),
    ...(flags.gitCredentialsFile ? { credentialsFile: flags.gitCredentialsFile } : {}),
    ...(flags.knownHosts ? { knownHostsFile: flags.knownHosts } : {}),
    ...(process.env.PLATCTL_GIT_USERNAME ? { username: process.env.PLATCTL_GIT_USERNAME } : {}),
  };
}

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
    const baseUrl = flags.baseUrl ?? process.env.PLATCTL_BASE_URL;
    if (!baseUrl)
      throw new PlatctlError('config', 'no platform URL: pass --base-url or set PLATCTL_BASE_URL');
    const logger = createLogger({ level: flags.logLevel, base: { component: 'controller' } });
    const apiKey = flags.apiKeyFile
      ? await fileSecret(flags.apiKeyFile, 'API key', logger)
      : process.env.PLATCTL_API_KEY;
    if (!apiKey)
      throw new PlatctlError('config', 'no API key: pass --api-key-file or set PLATCTL_API_KEY');
    const webhookSecret = flags.webhookSecretFile
      ? await fileSecret(flags.webhookSecretFile, 'webhook secret', logger)
      : process.env.PLATCTL_WEBHOOK_SECRET || undefined;
    const controlToken = flags.controlTokenFile
      ? await fileSecret(flags.controlTokenFile, 'control token', logger)
      : process.env.PLATCTL_CONTROL_TOKEN || undefined;
    const notifications = flags.notifications
      ? await notificationsOf(flags.notifications)
      : undefined;
    // every path is absolute from here on (src/cli/paths.ts): nothing below resolves one again
    const statePath = absoluteState(resolveStateTarget(flags.state));
    const controller = await startController({
      source: sourceOf(flags),
      cacheDir: flags.cacheDir ?? absolutePath(defaultCacheDir(statePath)),
      statePath,
      listen: flags.listen,
      ...(webhookSecret ? { webhookSecret } : {}),
      ...(controlToken ? { controlToken } : {}),
      api: {
        baseUrl,
        apiKey,
        dialect: dialectFrom(flags.dialect),
        ...(flags.rps ? { rps: flags.rps } : {}),
        ...(flags.concurrency ? { concurrency: flags.concurrency } : {}),
      },
      intervalMs: parseDuration(flags.interval, '--interval'),
      runTimeoutMs: parseDuration(flags.runTimeout, '--run-timeout'),
      leaseTtlMs: parseDuration(flags.leaseTtl, '--lease-ttl'),
      livenessThresholdMs: parseDuration(flags.livenessThreshold, '--liveness-threshold'),
      ...(flags.shardBy ? { shardBy: flags.shardBy } : {}),
      shutdownTimeoutMs: parseDuration(flags.shutdownTimeout, '--shutdown-timeout'),
      selfHeal: flags.selfHeal,
      dryRun: flags.dryRun === true,
      suspend: flags.suspend === true,
      prune: flags.prune === true,
      ...(flags.maxDeletes ? { maxDeletes: flags.maxDeletes } : {}),
      ...(notifications ? { notifications } : {}),
      credentialFiles: credentialFiles(flags, notifications),
      variables: { vars: parseVars(flags.var), varFiles: flags.varFile },
      logger,
    });
    // SIGTERM/SIGINT: no new action; the running ones finish and are recorded (waits still
    // running after --shutdown-timeout are cut and resumed by the next run); lease released.
    await new Promise<void>((done) => {
      const onSignal = (signal: NodeJS.Signals) => {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        logger.info({ event: 'signal', signal }, `${signal}: shutting down`);
        controller.stop().then(done, done);
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    });
  });
};
