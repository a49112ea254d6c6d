import { defaultCacheDir, type SourceConfig, startController } from '../controller/controller.js';
import { parseDuration } from '../controller/duration.js';
import type { NotificationConfig } from '../controller/notify/config.js';
import { SecretFile, type SecretValue } from '../controller/secrets/secret-file.js';
import { PlatctlError } from '../core/errors.js';
import { createLogger, type Logger } from '../core/logger.js';
import { formatDiagnostics } from '../manifests/diagnostics.js';
import { resolveStateTarget } from '../state/index.js';
import { loadPrices } from '../usage/prices.js';
import { dialectFrom } from './engine-options.js';
import { parseVars } from './flags.js';
import { absolutePath, absoluteRepo, absoluteState } from './paths.js';

/** The controller's flags, as commander parses them (paths already absolute). */
export interface ControllerFlags {
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
  prices?: string;
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
  const { loadNotifications } = await import('../controller/notify/config.js');
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
 * What `platctl controller` does once its flags are parsed (I/O): reads its credentials, starts
 * the controller and keeps it until SIGTERM/SIGINT, then stops it gracefully.
 */
export async function runController(flags: ControllerFlags): Promise<void> {
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
  const prices = flags.prices ? await loadPrices(flags.prices) : undefined;
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
    ...(prices ? { prices } : {}),
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
}
