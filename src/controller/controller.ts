import { systemClock } from '../core/clock.js';
import { createLogger } from '../core/logger.js';
import { nextTurn } from '../core/slices.js';
import { createApiClient } from '../providers/index.js';
import { processHolder, type StateStore, type StoredJson } from '../state/index.js';
import { apiLimits, type ControllerConfig } from './config.js';
import { controllerEngine, engineRun } from './engine/engine-adapter.js';
import { controllerLoader, withVariables } from './engine/manifest-loading.js';
import { engineObserve } from './engine/observe-one.js';
import { RevisionLoads } from './engine/revision-loads.js';
import { ControllerControls } from './http/controls.js';
import { closeServer, listen } from './http/server.js';
import { controllerSurface } from './http/surface.js';
import { leaderIntent, standbyElsewhere } from './leadership/elsewhere.js';
import type { ShardWiring } from './leadership/shards/wire.js';
import { leaseTiming, openControllerState, stateStoreLease } from './leadership/state-lease.js';
import { BackoffTracker } from './loop/backoff.js';
import { Heartbeat } from './loop/heartbeat.js';
import { exposedGc } from './loop/idle-gc.js';
import { ControllerLoop } from './loop/loop.js';
import { type RunningController, started } from './running.js';
import { liveSecrets } from './secrets/live-secrets.js';
import { createSource } from './sources/source-factory.js';
import type { StoredRun } from './status/history.js';
import { IntentBook } from './status/intent.js';
import { ControllerMetrics } from './status/metrics.js';
import { restoreStatus, statePersistence } from './status/persist.js';
import { initialStatus, type StepMemory } from './status/status.js';

export { type ControllerConfig, defaultCacheDir } from './config.js';
export type { RunningController } from './running.js';
export type { SourceConfig } from './sources/source-factory.js';

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
  const lease = leaseTiming(config.statePath, config.leaseTtlMs);
  // What the loop remembers, shared with the control surface; restored from the store
  const memory: StepMemory = {};
  let state: StateStore | undefined;
  let shards: ShardWiring | undefined;
  try {
    state = await openControllerState(config.statePath, {
      clock,
      holder,
      sharded: Boolean(config.shardBy),
    });
    shards =
      sharding && config.shardBy
        ? await sharding.wireShards({
            shardBy: config.shardBy,
            statePath: config.statePath,
            state,
            holder,
            ...lease,
            ...apiLimits(config.api),
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
      ...apiLimits(config.api),
      ...(config.api.dialect ? { dialect: config.api.dialect } : {}),
      ...(shards?.limiter ? { limiter: shards.limiter } : {}),
      clock,
      onRequest: metrics.onRequest,
      onRetry: metrics.onRetry,
    });
    // validation and the engine's run share one load per revision
    const loads = new RevisionLoads(
      withVariables(config.load ?? controllerLoader(secrets.known), config.variables),
    );
    const engine = controllerEngine(
      { api, state, clock, holder, logger, load: loads.load },
      { maxDeletes: config.maxDeletes, concurrency: config.api.concurrency, wait: config.wait },
      { files: config.credentialFiles ?? [], values: secrets.known },
    );
    const run =
      config.run ??
      (shards
        ? shards.replica.run((ports) => engineRun({ ...engine, ...ports }), loads.load)
        : engineRun(engine));
    const backoffOptions = config.backoff ?? { baseMs: 5_000, maxMs: 300_000 };
    const backoff = new BackoffTracker(backoffOptions);
    // Alerts from each finished run, sent on queues of their own; what they remember of the
    // alerts sent is saved with the status, so neither a restart nor a failover re-sends one.
    const notifier =
      config.notifications &&
      (await import('./notify/notifier.js')).createNotifier(config.notifications, {
        clock,
        logger,
        secrets: secrets.known,
        onDelivery: metrics.notification,
      });
    notifier?.seed(status);
    shards?.replica.rememberAlerts(notifier);
    const openedState = state;
    const ownStatus = shards
      ? undefined
      : statePersistence(state, status, () => notifier?.memory() as StoredJson | undefined);
    /** What the last leader saved: read at start (a standby shows it) and on each takeover. */
    const takeUp = async () => {
      // another replica may have written since: the next save writes whatever it holds
      ownStatus?.forget();
      const doc = await openedState.controllerStatus();
      if (restoreStatus(doc, status, memory)) {
        logger.info({ event: 'status-restored' }, 'status restored from the state store');
      }
      notifier?.restore(doc?.alerts, status);
    };
    if (!shards) await takeUp();
    // a suspension kept from before the restart shows before the first run ends
    metrics.suspended(config.suspend || memory.suspended === true);
    const leads = () => loop.leads;
    // what people asked, kept in the store and written under the fence; read before each run
    const intent = new IntentBook(shards?.intent ?? leaderIntent(openedState, leads), memory);
    const saveStatus = shards?.replica.persistence() ?? ownStatus!;
    const persist = async (run: StoredRun | undefined) => {
      await saveStatus(run);
      // the status of 100,000 resources takes seconds to write: the lease's renewal, due
      // meanwhile, goes before the intent's write, which only a proven leader may make
      await nextTurn();
      await intent.save();
    };
    // the parts the loop and the HTTP surface share
    const parts = { status, memory, metrics, logger, clock, heartbeat, backoff, run, persist };
    const loop: ControllerLoop = new ControllerLoop(
      {
        ...config,
        backoff: backoffOptions,
        leasePollMs: lease.pollMs,
        renewDeadlineMs: lease.renewDeadlineMs,
      },
      {
        ...parts,
        source,
        validate: loads.validate,
        collect: exposedGc(),
        // the renew deadline on a monotonic clock, unless a test drives time itself
        ...(config.clock ? {} : { elapsed: () => performance.now() }),
        intent,
        ...(notifier ? { observe: (outcome) => notifier.observe(status, outcome) } : {}),
        ...(shards ? {} : { onLead: takeUp }),
        lease: shards?.replica.lease ?? stateStoreLease(state, holder, lease),
      },
    );
    shards?.onWake(() => loop.trigger('shards gained', 'manual'));
    const controls = new ControllerControls({
      ...parts,
      loop,
      state,
      intent,
      elsewhere: shards?.elsewhere ?? standbyElsewhere(leads, () => status.leaseHolder),
      ...(shards ? { pruneElsewhere: shards.pruneElsewhere } : {}),
      suspendFlag: config.suspend,
      selfHeal: config.selfHeal,
      prune: config.prune,
      persist: () => persist(undefined),
      load: loads.load,
      observe: engineObserve(engine),
    });
    const server = controllerSurface({ ...parts, loop, controls, api, secrets }, config);
    const address = await listen(server, config.listen);
    logger.info(
      {
        event: 'started',
        source: source.description,
        listen: `${address.address}:${address.port}`,
      },
      'controller started',
    );
    const unwatch = source.watch?.(() => loop.trigger('file change', 'watch'));
    const running = loop.start();
    return started({ address, status, loop, metrics, controls }, async () => {
      await loop.stop();
      await running;
      api.close();
      await notifier?.close();
      await unwatch?.();
      await closeServer(server);
      await openedState.close();
    });
  } catch (err) {
    await shards?.replica.lease.release().catch(() => {});
    await state?.close();
    throw err;
  }
}
