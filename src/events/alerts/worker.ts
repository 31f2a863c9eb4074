/**
 * The alert worker of a node: makes alerts from new events (generate.ts) and sends due emails
 * (mailer.ts), every ALERT_POLL_MS while idle and at once again while there is more. It runs beside
 * ingest, never in its transactions: a slow or absent SMTP server delays emails, never a device's batch.
 * `runOnce()` makes one full pass (tests); `start()`/`stop()` run it in the background; stop() also
 * closes the SMTP connection.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../storage/db.js';
import { nowIso } from '../../storage/values.js';
import type { Config } from '../../config/index.js';
import { generateAlerts } from './generate.js';
import { createMailer, type Mailer } from './mailer.js';

/** Events read per transaction. */
const BATCH = 200;

export interface AlertWorker {
  runOnce(): Promise<{ alerts: number; emails: number }>;
  start(): void;
  stop(): Promise<void>;
}

export function createAlertWorker(db: Db, config: Config, log: FastifyInstance['log']): AlertWorker {
  const settings = config.alerts;
  const smtp = settings.smtp;
  const mailer: Mailer | null = smtp ? createMailer(db, { ...settings, smtp }, log) : null;
  const options = {
    keep: settings.feedMax,
    email: smtp ? { publicUrl: config.publicUrl } : null,
    batch: BATCH,
  };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = true;

  async function runOnce() {
    let alerts = 0;
    let emails = 0;
    for (;;) {
      const r = await generateAlerts(db, { ...options, now: nowIso() });
      alerts += r.alerts;
      if (!r.more) break;
    }
    if (mailer) {
      for (;;) {
        const r = await mailer.sendDue(() => new Date());
        emails += r.tried;
        if (!r.more) break;
      }
    }
    return { alerts, emails };
  }

  const loop = () => {
    timer = null;
    if (stopped) return;
    running = runOnce()
      .catch((err: unknown) => log.error({ err }, 'alert worker pass failed'))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(loop, settings.pollMs);
      });
  };

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      mailer?.close();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's alert worker: started on a serving node when ALERT_WORKER is on (src/workers.ts). */
    alertWorker: AlertWorker;
  }
}

/** Installs the app's alert worker, not started; it stops before the database closes. */
export function installAlertWorker(app: FastifyInstance): AlertWorker {
  const worker = createAlertWorker(app.db, app.config, app.log.child({ component: 'alerts' }));
  app.decorate('alertWorker', worker);
  app.addHook('preClose', () => worker.stop());
  return worker;
}
