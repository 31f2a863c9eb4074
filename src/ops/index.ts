/**
 * Operations instrumentation of one app (docs/operations.md): Prometheus metrics at `GET /metrics`
 * when METRICS_TOKEN is set, and the slow-request log unless SLOW_REQUEST_MS is off, with each
 * request's database queries when SLOW_REQUEST_QUERIES is on. src/plugins.ts registers it before any
 * other onRequest hook, so that the request scope covers authentication too.
 */
import type { FastifyInstance } from 'fastify';
import type { LogEvent } from 'kysely';
import type { Config } from '../config/index.js';
import type { Db } from '../storage/db.js';
import { createMetrics } from './metrics.js';
import { httpRecorder, queryRecorder } from './http-metrics.js';
import { installRequestScope } from './request-scope.js';
import { logSlowRequest } from './slow-log.js';
import { attemptRecorder, scraper } from './scrape.js';
import { metricsRoute } from './route.js';
import { registerSheddingMetrics } from './shed-metrics.js';

export function installMetrics(app: FastifyInstance, db: Db, config: Config): void {
  const { metricsToken, slowRequestMs, slowRequestQueries } = config.ops;
  const metrics = metricsToken ? createMetrics() : null;
  const countOnRequest = slowRequestMs !== null && slowRequestQueries ? installRequestScope(app) : null;
  const countQuery = metrics ? queryRecorder(metrics) : null;
  if (!metrics && slowRequestMs === null) return;

  if (countOnRequest || countQuery) {
    const onQuery =
      countOnRequest && countQuery
        ? (e: LogEvent) => {
            countQuery(e);
            countOnRequest(e);
          }
        : (countOnRequest ?? countQuery)!;
    const stopObserving = db.observeQueries(onQuery);
    app.addHook('onClose', async () => stopObserving());
  }

  const record = metrics ? httpRecorder(metrics) : null;
  app.addHook('onResponse', (req, reply, done) => {
    const durationMs = reply.elapsedTime;
    // A live stream (`config.longLived`) stays open for minutes by design: counted, but neither timed nor slow.
    const longLived = req.routeOptions.config?.longLived === true;
    record?.(req, reply, longLived ? null : durationMs);
    if (slowRequestMs !== null && !longLived && durationMs >= slowRequestMs) logSlowRequest(req, reply, durationMs);
    done();
  });

  if (!metrics || !metricsToken) return;
  // Load shedding is installed after this (src/plugins.ts); its state is read at scrape time.
  registerSheddingMetrics(metrics.registry, () => app.loadShedding);
  const log = app.log.child({ component: 'metrics' });
  const render = scraper(metrics, db, (err) =>
    log.warn({ err: { message: (err as Error)?.message ?? String(err) } }, 'metrics: database read failed'),
  );
  metricsRoute(app, metricsToken, metrics.registry.contentType, render);
  // The webhook runtime is installed after this; its worker reports attempts once the app is ready.
  let stopListening: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stopListening = app.webhooks?.worker.addAttemptListener(attemptRecorder(metrics));
  });
  app.addHook('onClose', async () => stopListening?.());
}
