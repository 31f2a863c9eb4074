/**
 * The webhook runtime of one app: the HTTP sender, the delivery worker and what the registration
 * routes need. buildApp installs it (`app.webhooks`); the server starts the worker when WEBHOOK_WORKER
 * is on, tests drive it with `app.webhooks.worker.runOnce()`. Closing the app stops the worker
 * (attempts in flight finish and are recorded) and closes the sender's connections.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/index.js';
import type { Db } from '../../storage/db.js';
import { createSender, type Sender } from './sender.js';
import { DeliveryWorker, type Clock } from './worker.js';
import type { WebhookDeps } from './service.js';

export interface WebhookRuntime extends WebhookDeps {
  worker: DeliveryWorker;
  /** Starts the background worker (idempotent). */
  start(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhookRuntime;
  }
}

export function createWebhookRuntime(
  db: Db,
  config: Config,
  log: FastifyInstance['log'],
  opts: { clock?: Clock; sender?: Sender } = {},
): WebhookRuntime {
  const settings = config.webhooks;
  const sender =
    opts.sender ??
    createSender({
      timeoutMs: settings.timeoutMs,
      allowPrivate: settings.allowPrivate,
      maxSockets: settings.concurrency,
    });
  const worker = new DeliveryWorker({
    db,
    config: settings,
    publicUrl: config.publicUrl,
    sender,
    clock: opts.clock,
    log: log.child({ component: 'webhooks' }),
  });
  return {
    db,
    config: settings,
    sender,
    worker,
    now: () => worker.now(),
    start: () => worker.start(),
  };
}

export function installWebhooks(
  app: FastifyInstance,
  db: Db,
  config: Config,
  opts: { clock?: Clock } = {},
): WebhookRuntime {
  const runtime = createWebhookRuntime(db, config, app.log, opts);
  app.decorate('webhooks', runtime);
  // preClose: before the database is closed by the onClose hooks.
  app.addHook('preClose', async () => {
    await runtime.worker.stop();
    runtime.sender.close();
  });
  return runtime;
}
