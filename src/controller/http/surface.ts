import type { Server } from 'node:http';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { ApiClient } from '../../model/api.js';
import type { PriceFile } from '../../model/prices.js';
import type { Heartbeat } from '../loop/heartbeat.js';
import type { ControllerLoop } from '../loop/loop.js';
import type { LiveSecrets } from '../secrets/live-secrets.js';
import type { SourceConfig } from '../sources/source-factory.js';
import type { ControllerMetrics } from '../status/metrics.js';
import type { ControllerStatus } from '../status/status.js';
import { controlApiRoute } from './control-api.js';
import { sourceView } from './control-views.js';
import type { ControllerControls } from './controls.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { createControllerServer } from './server.js';

/** The running parts the HTTP surface reads and drives, all shared with the loop. */
export interface SurfaceParts {
  readonly status: ControllerStatus;
  readonly metrics: ControllerMetrics;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly heartbeat: Heartbeat;
  readonly loop: ControllerLoop;
  /** The day-2 controls the control API drives. */
  readonly controls: ControllerControls;
  /** The platform client the dashboard reads usage with (its rate limit shared with runs). */
  readonly api: ApiClient;
  readonly secrets: Pick<LiveSecrets, 'webhookSecret' | 'controlToken'>;
}

/** The settings the surface shows or keeps to; a `ControllerConfig` is one. */
export interface SurfaceSettings {
  readonly source: SourceConfig;
  /** The dashboard's built page. @default dist/dashboard of the package */
  readonly dashboardDir?: string;
  /** Prices usage on the dashboard (`--prices`). */
  readonly prices?: PriceFile;
}

/**
 * The controller's HTTP surface, not yet listening: health, readiness, metrics, status and the
 * signed git webhook (server.ts), then the control API on the controller's controls, then the
 * dashboard's routes. No secret in any answer; the tokens are asked per request (rotation).
 */
export function controllerSurface(p: SurfaceParts, settings: SurfaceSettings): Server {
  const { status, metrics, logger, clock, loop, secrets } = p;
  return createControllerServer({
    status,
    metrics,
    logger,
    ready: () => loop.ready,
    health: () => {
      const h = p.heartbeat.check();
      const lease = loop.leaseHealth();
      // a leader cut off from its database is not alive either: a restart reconnects it
      return h.ok && !lease.ok
        ? { ok: false, heartbeatAgeMs: h.heartbeatAgeMs, reason: lease.reason ?? 'lease' }
        : h;
    },
    now: () => clock.now(),
    trigger: (reason) => loop.trigger(reason, 'webhook'),
    standby: () => p.controls.elsewhere('replica'),
    ...(secrets.webhookSecret ? { webhookSecret: secrets.webhookSecret } : {}),
    ...(settings.source.kind === 'git' ? { webhookBranch: settings.source.branch } : {}),
    routes: [
      controlApiRoute({
        ...(secrets.controlToken ? { token: secrets.controlToken } : {}),
        controls: p.controls,
        source: sourceView(settings.source),
        ...(settings.prices ? { prices: settings.prices } : {}),
        logger,
        now: () => clock.now(),
      }),
      ...dashboardRoutes({
        api: p.api,
        logger,
        ...(secrets.controlToken ? { controlToken: secrets.controlToken } : {}),
        ...(settings.dashboardDir !== undefined ? { assetsDir: settings.dashboardDir } : {}),
        ...(settings.prices ? { prices: settings.prices } : {}),
      }),
    ],
  });
}
