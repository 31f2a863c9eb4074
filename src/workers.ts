/**
 * Every background worker of a node is started and stopped here, and nowhere else:
 *
 * - the telemetry sweep, which processes stored device records once they are past the reorder window
 *   (src/telemetry/store/runner.ts). It runs with the app: the device API stores through it.
 * - the OsmAnd listener, when OSMAND_PORT is set (src/telemetry/osmand.ts). It binds as the app becomes
 *   ready, before the API listens, so a port that cannot be bound stops the start.
 * - the webhook delivery worker, when WEBHOOK_WORKER is on (src/events/webhooks). It starts once the
 *   server listens; tests drive it by hand (`app.webhooks.worker.runOnce()`).
 * - the alert worker, when ALERT_WORKER is on (src/events/alerts): alerts from new events, and their
 *   emails when SMTP_URL is set. Like the webhook worker, it starts once the server listens and stops as
 *   the app closes; tests drive it by hand (`app.alertWorker.runOnce()`).
 * - the demo simulator (src/sim/demo.ts), once the demo company is seeded.
 * - storage maintenance (src/storage/partitions/timer.ts): PostgreSQL's partitions ahead, retention, on
 *   a serving node; the partitions ahead are also made as the app becomes ready, before it listens.
 *
 * They stop in the reverse order: the simulator first (it frees its trucks), then, as the app closes,
 * the webhook worker (src/events/webhooks/index.ts, before the database closes), the OsmAnd listener and
 * the sweep.
 */
import type { FastifyInstance } from 'fastify';
import { dropTelemetry, telemetryFor, type Telemetry } from './telemetry/store/runner.js';
import { startOsmand, type OsmandServer } from './telemetry/osmand.js';
import { startDemoSimulation } from './sim/demo.js';
import { runMaintenance } from './storage/partitions/maintain.js';
import { startMaintenanceTimer } from './storage/partitions/timer.js';
import { installAlertWorker } from './events/alerts/worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's telemetry service: the device API and the OsmAnd listener store records through it. */
    telemetry: Telemetry;
  }
}

/** The workers that live as long as the app: the telemetry sweep and the OsmAnd listener (buildApp). */
export function installAppWorkers(app: FastifyInstance): void {
  const cfg = app.config.telemetry;
  const telemetry = telemetryFor(app.db, cfg, app.log);
  app.decorate('telemetry', telemetry);
  telemetry.start();
  // Under the maintenance lock: nodes starting together must not create the same partition at once
  // (CREATE TABLE IF NOT EXISTS is not safe against a concurrent create); a node that finds the lock
  // taken leaves it to the node holding it, and the partitions are weeks ahead anyway.
  app.addHook('onReady', async () => {
    await runMaintenance(app.db, app.config.retention, { nowMs: Date.now(), dryRun: false, retention: false });
  });
  installAlertWorker(app);
  let osmand: OsmandServer | null = null;
  if (cfg.osmandPort !== null) {
    const port = cfg.osmandPort;
    app.addHook('onReady', async () => {
      osmand ??= await startOsmand(telemetry, {
        host: app.config.host,
        port,
        log: app.log,
        requests: app.deviceLog.osmand,
      });
      app.sideListeners.set('OsmAnd', osmand.url);
    });
  }
  app.addHook('onClose', async () => {
    await osmand?.close();
    await telemetry.stop();
    dropTelemetry(app.db);
  });
}

/** The workers of a serving node (src/server.ts), once it listens at `url`. */
export async function startServerWorkers(
  app: FastifyInstance,
  opts: { url: string; demoCompanyId: number | null; out: (text: string) => void },
): Promise<{ stop(): Promise<void> }> {
  if (app.config.webhooks.worker) app.webhooks.start();
  const maintenance = startMaintenanceTimer(app.db, app.config.retention, app.log);
  if (app.config.alerts.worker) app.alertWorker.start();
  const sim =
    opts.demoCompanyId !== null ? await startDemoSimulation(app, opts.url, opts.demoCompanyId, opts.out) : null;
  return {
    stop: async () => {
      await sim?.stop();
      await maintenance.stop();
    },
  };
}
