import { systemClock } from '../core/clock.js';
import type { ApiClient } from '../model/api.js';
import { createApiClient, resolveConnection } from '../providers/index.js';
import type { EngineConfig } from '../reconcile/default-ports.js';
import { resolveStateTarget } from '../state/index.js';
import type { EngineFlags } from './engine-options.js';

// What the engine commands resolve once they run (loaded by their actions, never by --help).

/**
 * Where the platform is and the key to it (I/O: may read the config file and a key file): flags,
 * then `PLATCTL_BASE_URL` / `PLATCTL_API_KEY`, then a profile of the config file. The key is never
 * a flag value.
 */
export async function connection(
  flags: Pick<EngineFlags, 'baseUrl' | 'apiKeyFile' | 'profile' | 'config' | 'dialect'>,
): Promise<
  Pick<EngineConfig, 'baseUrl' | 'apiKey' | 'groups' | 'paths' | 'dialect' | 'credentialFiles'>
> {
  const c = await resolveConnection({
    flags: {
      ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.apiKeyFile ? { apiKeyFile: flags.apiKeyFile } : {}),
      ...(flags.profile ? { profile: flags.profile } : {}),
      ...(flags.config ? { config: flags.config } : {}),
      ...(flags.dialect ? { dialect: flags.dialect } : {}),
    },
  });
  for (const w of c.warnings) process.stderr.write(`warning: ${w}\n`);
  return {
    baseUrl: c.baseUrl,
    apiKey: c.apiKey,
    groups: c.groups,
    paths: c.paths,
    dialect: c.dialect,
    credentialFiles: c.credentialFiles,
  };
}

/**
 * The engine's configuration from the flags every engine command shares (I/O through
 * {@link connection}).
 */
export async function engineConfig(flags: EngineFlags): Promise<EngineConfig> {
  return {
    ...(await connection(flags)),
    statePath: resolveStateTarget(flags.state),
    ...(flags.rps ? { rps: flags.rps } : {}),
    // the cap holds for requests in flight as well as for actions
    ...(flags.concurrency ? { httpConcurrency: flags.concurrency } : {}),
  };
}

/**
 * The API client of a command that reads the platform outside the engine (`import`, `usage`):
 * the resolved connection (groups, paths, dialect) and the command's rate flags.
 */
export function connectedClient(
  conn: Awaited<ReturnType<typeof connection>>,
  limits: { rps?: number | undefined; concurrency?: number | undefined },
): ApiClient & { close(): void } {
  return createApiClient({
    baseUrl: conn.baseUrl,
    apiKey: conn.apiKey,
    clock: systemClock,
    ...(conn.groups ? { groups: conn.groups } : {}),
    ...(conn.paths ? { paths: conn.paths } : {}),
    ...(conn.dialect ? { dialect: conn.dialect } : {}),
    ...(limits.rps ? { rps: limits.rps } : {}),
    ...(limits.concurrency ? { concurrency: limits.concurrency } : {}),
  });
}
