import type { AddressInfo } from 'node:net';
import { systemClock } from '../core/clock.js';
import { createLogger } from '../core/logger.js';
import { createApiClient, createProviderRegistry, resolveSecret } from '../providers/index.js';
import { cachedStore } from '../state/cached.js';
import { isPostgresUrl, openState, processHolder, type StateStore } from '../state/index.js';
import type { ControllerConfig } from './config.js';
import {
  controllerLoad,
  type EngineDeps,
  engineRun,
  manifestEnv,
} from './engine/engine-adapter.js';
import { RevisionLoads } from './engine/revision-loads.js';
import { controlApiRoute } from './http/control-api.js';
import { sourceView } from './http/control-views.js';
import { ControllerControls } from './http/controls.js';
import { dashboardRoutes } from './http/dashboard/routes.js';
import { createControllerServer, listen } from './http/server.js';
import type { ShardWiring } from './leadership/shards/wire.js';
import { stateStoreLease } from './leadership/state-lease.js';
import { BackoffTracker } from './loop/backoff.js';
import { Heartbeat } from './loop/heartbeat.js';
import { exposedGc } from './loop/idle-gc.js';
import { ControllerLoop } from './loop/loop.js';
import { liveSecrets } from './secrets/live-secrets.js';
import { createSource } from './sources/source-factory.js';
import { ControllerMetrics } from './status/metrics.js';
import { restoreStatus, statePersistence } from './status/persist.js';
import { type ControllerStatus, initialStatus, type StepMemory } from './status/status.js';

export { type ControllerConfig, defaultCacheDir } from './config.js';
export type { SourceConfig } from './sources/source-factory.js';

/** A started controller. */
export interface RunningController {
  readonly address: AddressInfo;
  readonly status: ControllerStatus;
  readonly loop: ControllerLoop;
  readonly metrics: ControllerMetrics;
  /** See {@link ControllerLoop.approvePrune}. */
  approvePrune(runId: string): boolean;
  /** Graceful: no new action, the running step recorded, lease released, server closed. */
  stop(): Promise<void>;
}

/**
 * Wires and starts a controller (I/O): source, state store, API client with metrics hooks, the
 * engine's run, the loop with leader election, and the HTTP server. Resolves once listening; the
 * loop runs in the background until {@link RunningController.stop}.
 */
export async function startController(config: ControllerConfig): Promise<RunningController> {
  // Sharding and notifications are imported only when configured: a controller without them
  // never loads their modules (nor, on SQLite, the PostgreSQL driver).
  const sharding = config.shardBy ? await import('./leadership/shards/wire.js') : undefined;
  // a state replicas cannot share is refused before anything opens or starts
  if (sharding && config.shardBy) sharding.assertShardable(config.shardBy, config.statePath);
  const clock = config.clock ?? systemClock;
  const logger = config.logger ?? createLogger({ base: { component: 'controller' } });
  const source = await createSource(config);
  const status = initialStatus(source.description, {
    suspended: config.suspend,
    dryRun: config.dryRun,
    selfHeal: config.selfHeal,
  });
  const metrics = new ControllerMetrics();
  const heartbeat = new Heartbeat({
    thresholdMs: config.livenessThresholdMs ?? 300_000,
    now: () => clock.now(),
    onBeat: (at) => metrics.heartbeat(at),
  });
  const holder = processHolder(config.holderLabel ?? 'controller');
  const ttlMs = config.leaseTtlMs ?? 15_000;
  // PostgreSQL frees the lock the moment its holder's session ends, so standbys ask every
  // second (one cheap query) to take over within seconds; SQLite waits for the ttl anyway
  const leasePollMs = Math.max(
    10,
    Math.floor(isPostgresUrl(config.statePath) ? Math.min(1000, ttlMs / 3) : ttlMs / 3),
  );
  // What the loop remembers, shared with the control surface; restored from the store
  const memory: StepMemory = {};
  let state: StateStore | undefined;
  let shards: ShardWiring | undefined;
  try {
    const opened = await openState(config.statePath, { clock });
    // one replica holding the whole store's lease keeps inventory and last-applied in memory
    // while it holds it; sharded replicas, fenced per project, read them each run
    state = config.shardBy ? opened : cachedStore(opened, holder);
    shards =
      sharding && config.shardBy
        ? await sharding.wireShards({
            shardBy: config.shardBy,
            statePath: config.statePath,
            state,
            holder,
            ttlMs,
            pollMs: leasePollMs,
            ...(config.api.rps !== undefined ? { rps: config.api.rps } : {}),
            ...(config.api.concurrency !== undefined
              ? { concurrency: config.api.concurrency }
              : {}),
            clock,
            logger,
            status,
            memory,
          })
        : undefined;
    // credentials asked on every use: a rotated file applies from the next request on
    const secrets = await liveSecrets({
      apiKey: config.api.apiKey,
      webhookSecret: config.webhookSecret,
      controlToken: config.controlToken,
      gitToken: config.source.kind === 'git' ? config.source.token : undefined,
    });
    const api = createApiClient({
      baseUrl: config.api.baseUrl,
      apiKey: secrets.apiKey,
      ...(config.api.rps !== undefined ? { rps: config.api.rps } : {}),
      ...(config.api.concurrency !== undefined ? { concurrency: config.api.concurrency } : {}),
      ...(shards?.limiter ? { limiter: shards.limiter } : {}),
      clock,
      onRequest: metrics.onRequest,
      onRetry: metrics.onRetry,
    });
    // validation and the engine's run share one load per revision
    const loads = new RevisionLoads(config.load ?? controllerLoad);
    const engineDeps: EngineDeps = {
      api,
      providers: createProviderRegistry(),
      state,
      clock,
      holder,
      logger,
      resolveSecret: (s) => resolveSecret(s, { env: manifestEnv() }),
      ...(config.maxDeletes !== undefined ? { maxDeletes: config.maxDeletes } : {}),
      ...(config.api.concurrency !== undefined ? { concurrency: config.api.concurrency } : {}),
      ...(config.wait ? { wait: config.wait } : {}),
      load: loads.load,
    };
    const run =
      config.run ??
      (shards
        ? shards.replica.run((ports) => engineRun({ ...engineDeps, ...ports }), loads.load)
        : engineRun(engineDeps));
    const backoffOptions = config.backoff ?? { baseMs: 5_000, maxMs: 300_000 };
    const backoff = new BackoffTracker(backoffOptions);
    if (!shards && restoreStatus(await state.controllerStatus(), status, memory)) {
      logger.info({ event: 'status-restored' }, 'status restored from the state store');
    }
    // Alerts from each finished run, sent on queues of their own; a restart re-sends none.
    const notifier =
      config.notifications &&
      (await import('./notify/notifier.js')).createNotifier(config.notifications, {
        clock,
        logger,
        secrets: secrets.known,
        onDelivery: metrics.notification,
      });
    notifier?.seed(status);
    // a suspension kept from before the restart shows before the first run ends
    metrics.suspended(config.suspend || memory.suspended === true);
    const persist = shards?.replica.persistence() ?? statePersistence(state, status, memory);
    const loop = new ControllerLoop(
      {
        ...config,
        backoff: backoffOptions,
        leasePollMs,
      },
      {
        memory,
        backoff,
        persist,
        collect: exposedGc(),
        source,
        validate: loads.validate,
        run,
        clock,
        logger,
        metrics,
        status,
        heartbeat,
        lease: shards?.replica.lease ?? stateStoreLease(state, holder, { ttlMs }),
      },
    );
    shards?.onWake(() => loop.trigger('shards gained', 'manual'));
    const server = createControllerServer({
      status,
      metrics,
      logger,
      ready: () => loop.ready,
      health: () => heartbeat.check(),
      now: () => clock.now(),
      trigger: (reason) => loop.trigger(reason, 'webhook'),
      ...(secrets.webhookSecret ? { webhookSecret: secrets.webhookSecret } : {}),
      ...(config.source.kind === 'git' ? { webhookBranch: config.source.branch } : {}),
      routes: [
        controlApiRoute({
          ...(secrets.controlToken ? { token: secrets.controlToken } : {}),
          controls: new ControllerControls({
            status,
            memory,
            backoff,
            loop,
            run,
            state,
            logger,
            metrics,
            suspendFlag: config.suspend,
            selfHeal: config.selfHeal,
            prune: config.prune,
            persist: () => persist(undefined),
          }),
          source: sourceView(config.source),
          logger,
          now: () => clock.now(),
        }),
        ...dashboardRoutes({
          api,
          logger,
          ...(secrets.controlToken ? { controlToken: secrets.controlToken } : {}),
          ...(config.dashboardDir !== undefined ? { assetsDir: config.dashboardDir } : {}),
        }),
      ],
    });
    const address = await listen(server, config.listen);
    logger.info(
      {
        event: 'started',
        source: source.description,
        listen: `${address.address}:${address.port}`,
      },
      'controller started',
    );
    if (notifier) loop.onStep((outcome) => notifier.observe(status, outcome));
    const unwatch = source.watch?.(() => loop.trigger('file change', 'watch'));
    const running = loop.start();
    const openedState = state;
    let stopping: Promise<void> | undefined;
    return {
      address,
      status,
      loop,
      metrics,
      approvePrune: (runId) => loop.approvePrune(runId),
      stop: () => {
        stopping ??= (async () => {
          await loop.stop();
          await running;
          api.close();
          await notifier?.close();
          await unwatch?.();
          await new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          });
          await openedState.close();
        })();
        return stopping;
      },
    };
  } catch (err) {
    await shards?.replica.lease.release().catch(() => {});
    await state?.close();
    throw err;
  }
}
