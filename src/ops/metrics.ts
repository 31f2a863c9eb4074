/**
 * The metrics of one app, on registries of its own (never prom-client's global one: a test process
 * builds many apps). `registry` holds what this process counts and the process metrics; `dbRegistry`
 * holds the values read from the database at scrape time, rendered only when that read succeeded.
 * docs/operations.md lists every name and label.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { SeriesCounter, SeriesHistogram } from './series.js';

const HTTP_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DB_BUCKETS_S = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5];

export function createMetrics() {
  const registry = new Registry();
  const dbRegistry = new Registry();
  collectDefaultMetrics({ register: registry });
  const on = [registry];
  const scraped = [dbRegistry];
  return {
    registry,
    dbRegistry,
    httpRequests: new SeriesCounter(
      'fleet_http_requests_total',
      'HTTP requests answered, by method, route pattern ("(unmatched)" for unknown paths) and status code',
      registry,
    ),
    httpDuration: new SeriesHistogram(
      'fleet_http_request_duration_seconds',
      'Time from receiving a request to sending its answer, by method, route pattern and status class',
      registry,
      HTTP_BUCKETS_S,
    ),
    dbQueryDuration: new SeriesHistogram(
      'fleet_db_query_duration_seconds',
      'Database queries made by this process and their duration, by operation (select, insert, update, delete, raw, other)',
      registry,
      DB_BUCKETS_S,
    ),
    dbQueryErrors: new SeriesCounter(
      'fleet_db_query_errors_total',
      'Database queries that failed, by operation',
      registry,
    ),
    dbPoolClients: new Gauge({
      name: 'fleet_db_pool_clients',
      help: 'PostgreSQL pool clients by state (total, idle, waiting = requests waiting for a client); SQLite: total 1',
      labelNames: ['state'] as const,
      registers: on,
    }),
    dbUp: new Gauge({
      name: 'fleet_db_up',
      help: '1 when the scrape-time database read succeeded within its deadline, else 0 (the fleet_outbox_*, fleet_webhook_deliveries* and fleet_telemetry_* gauges are then absent)',
      registers: on,
    }),
    dbReadDuration: new Gauge({
      name: 'fleet_metrics_db_read_seconds',
      help: 'How long the scrape-time database read took (the deadline when it timed out)',
      registers: on,
    }),
    readCache: new Gauge({
      name: 'fleet_read_cache',
      help: 'The read cache of this process (docs/caching.md): hits, misses, stored and uncacheable since start (uncacheable = read a table other nodes do not announce), entries and bytes now',
      labelNames: ['stat'] as const,
      registers: on,
    }),
    changeListenerUp: new Gauge({
      name: 'fleet_change_listener_up',
      help: '1 while this process sees changes made by other processes (PostgreSQL LISTEN connection up; always 1 on SQLite), else 0: the read cache is off meanwhile',
      registers: on,
    }),
    webhookAttempts: new Counter({
      name: 'fleet_webhook_attempts_total',
      help: 'Webhook delivery attempts made by this process, by outcome (delivered, retry, rejected, failed) and result (2xx..5xx, timeout, refused, network, invalid_url)',
      labelNames: ['outcome', 'result'] as const,
      registers: on,
    }),
    outboxEvents: new Gauge({
      name: 'fleet_outbox_events_pending',
      help: 'Domain events not fanned out to webhooks yet (counted up to 100000)',
      registers: scraped,
    }),
    outboxOldestAge: new Gauge({
      name: 'fleet_outbox_oldest_event_age_seconds',
      help: 'Age of the oldest domain event not fanned out yet (0 when there is none)',
      registers: scraped,
    }),
    deliveries: new Gauge({
      name: 'fleet_webhook_deliveries',
      help: 'Webhook deliveries not finished, by state: queued (behind an earlier delivery of the same object), pending, delivering (counted up to 100000 each)',
      labelNames: ['state'] as const,
      registers: scraped,
    }),
    deliveriesOverdue: new Gauge({
      name: 'fleet_webhook_oldest_due_delivery_age_seconds',
      help: 'How long the most overdue pending delivery has been due (0 when none is due)',
      registers: scraped,
    }),
    telemetryPending: new Gauge({
      name: 'fleet_telemetry_pending_vehicles',
      help: 'Vehicles with stored telemetry records not processed yet (including records held back by the reorder window)',
      registers: scraped,
    }),
    telemetryOldestPending: new Gauge({
      name: 'fleet_telemetry_oldest_pending_age_seconds',
      help: 'Among vehicles with unprocessed records, the longest time since one of them had a batch stored: a lower bound of the age of the oldest stored-but-unprocessed record',
      registers: scraped,
    }),
    telemetryFixLag: new Gauge({
      name: 'fleet_telemetry_fix_lag_seconds',
      help: "Largest gap, in fix time, between a vehicle's newest stored record and the last one processed (normally at most TELEMETRY_REORDER_WINDOW_S)",
      registers: scraped,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
