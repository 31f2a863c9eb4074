/**
 * Configuration, read once from the environment and validated.
 * Every tunable has its unit in its name or its doc, and a default.
 */
import { trustProxy, type TrustProxy } from './proxy.js';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { whole } from './env.js';
import { telemetryConfig, type TelemetryConfig } from '../telemetry/thresholds.js';
import { webhookConfig, type WebhookConfig } from '../events/webhooks/settings.js';
import { alertConfig, type AlertConfig } from '../events/alerts/settings.js';
import { limitsConfig, type LimitsConfig } from '../limits/settings.js';
import { failurePolicy, type FailurePolicy } from '../limits/failures.js';
import { opsConfig, type OpsConfig } from '../ops/config.js';
import { sheddingConfig, type SheddingConfig } from '../ops/shedding-config.js';
import { mapConfig, type MapConfig } from './map.js';
import { acceptedAgeDays, retentionConfig, type RetentionConfig } from './retention.js';

export interface Config {
  /** TCP port the server listens on. */
  port: number;
  /** Which reverse proxies may name the client (src/config/proxy.ts). */
  trustProxy: TrustProxy;
  /** Interface to bind; 127.0.0.1 by default so a fresh install is not exposed. */
  host: string;
  /** `sqlite:<path>`, `sqlite::memory:`, `postgres://…` or `postgresql://…`. */
  databaseUrl: string;
  /**
   * SQLite only: `full` (default) syncs every commit to disk before it returns, so an answered write
   * survives a power loss; `normal` survives a crash of the process but not of the machine, and
   * spares the fsync per commit (docs/storage.md).
   */
  sqliteSynchronous: SqliteSynchronous;
  /** Optional Redis for shared counters across nodes. */
  redisUrl: string | null;
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  logLevel: string;
  /**
   * How log lines are written (LOG_FORMAT): `pretty` (one readable line each, local time), `json` (one
   * JSON object each), or `auto` (the default): pretty when stdout is a terminal, else JSON (docs/operations.md, Logs).
   */
  logFormat: LogFormat;
  /**
   * The device-traffic summary line (batches, records, rejects) is written every this many seconds when
   * there was some (LOG_SUMMARY_INTERVAL_S, default 60; 0: never). Device requests are logged at debug level.
   */
  logSummaryIntervalS: number;
  /** Public origin used to build absolute URLs (OAuth redirects, download links). */
  publicUrl: string;
  /** Largest accepted request body, bytes. */
  bodyLimitBytes: number;
  /**
   * Memory budget of the read cache (serialized GET responses and credentials kept while the tables
   * they came from are unchanged), bytes; 0 turns it off. See docs/caching.md.
   */
  readCacheMaxBytes: number;
  /** How long graceful shutdown waits for in-flight requests, milliseconds. */
  shutdownGraceMs: number;
  /** OAuth: an unused refresh token expires after this many seconds (at least 2 hours; docs/oauth.md). */
  oauthRefreshTokenTtlS: number;
  /**
   * OAuth: a refresh token presented again within this many seconds of its first use gets another token
   * pair instead of revoking the grant (concurrent refreshes; 0: none; docs/oauth.md).
   */
  oauthRefreshReuseGraceS: number;
  /**
   * OAuth: how long a node may answer from its in-process cache of access tokens, milliseconds. This is
   * the longest time a revocation made on another node takes to reach this one.
   */
  oauthTokenCacheMs: number;
  /** OAuth: most access tokens held in that cache per process. */
  oauthTokenCacheSize: number;
  /** Web pages (sign-in, consent, portal): signed sessions last this many seconds. */
  webSessionTtlS: number;
  /**
   * The console shows a vehicle whose last position is at least this many minutes old as offline, with
   * no live speed (CONSOLE_OFFLINE_AFTER_MIN; a tracker that goes silent sends nothing to say so).
   */
  consoleOfflineAfterMin: number;
  /** The console map's optional tile layer (MAP_TILE_URL, MAP_TILE_ATTRIBUTION; src/config/map.ts). */
  map: MapConfig;
  /**
   * Key that signs web cookies. Random per process when unset, which is fine for one node; set the
   * same value (32+ characters) on every node behind a load balancer.
   */
  cookieSecret: string;
  /** Failed sign-ins and OAuth client authentications: windows, limits, known addresses (AUTH_*; docs/rate-limits.md). */
  authFailures: FailurePolicy;
  /**
   * Folder of the local-disk blob store (document files). Default: `blobs` next to the database file
   * for `sqlite:<path>`, a folder under the system temp folder for `sqlite::memory:`, else `./data/blobs`.
   */
  blobDir: string;
  /** Largest document file accepted, bytes. */
  documentMaxBytes: number;
  /** Content types a document file may have (DOCUMENT_CONTENT_TYPES, comma-separated). */
  documentContentTypes: string[];
  /** Device ingestion, processor thresholds and the OsmAnd port (TELEMETRY_*, OSMAND_PORT, …; docs/telemetry.md). */
  telemetry: TelemetryConfig;
  /** Webhook delivery: worker, target policy, timeout, retry schedule, test body (WEBHOOK_*; docs/webhooks.md). */
  webhooks: WebhookConfig;
  /** How long each growing table is kept, and the maintenance job (RETENTION_*, MAINTENANCE_*; docs/storage.md). */
  retention: RetentionConfig;
  /** Alerts: the worker, the feed's size, email over SMTP (ALERT_*, SMTP_*; docs/alerts.md). */
  alerts: AlertConfig;
  /** Request-rate and concurrency limits, and their Redis (RATE_LIMIT_*, REDIS_*; docs/rate-limits.md). */
  limits: LimitsConfig;
  /** Operations: the /metrics token and the slow-request log (METRICS_TOKEN, SLOW_REQUEST_MS; docs/operations.md). */
  ops: OpsConfig;
  /** Load shedding: 503 at once while the event loop lags or too much is in flight (LOAD_SHED_*; docs/operations.md). */
  shedding: SheddingConfig;
}

export class ConfigError extends Error {}

const configError = (message: string) => new ConfigError(message);

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function databaseKind(url: string): 'sqlite' | 'postgres' {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new ConfigError(`DATABASE_URL must start with sqlite:, postgres:// or postgresql://, got "${url}"`);
}

function cookieSecret(env: Record<string, string | undefined>): string {
  const v = env.COOKIE_SECRET;
  if (v === undefined || v === '') return randomBytes(32).toString('base64url');
  if (v.length < 32) throw new ConfigError(`COOKIE_SECRET must be at least 32 characters long, got ${v.length}`);
  return v;
}

/** BLOB_DIR, or a default that follows the database (see Config.blobDir). */
function blobDir(env: Record<string, string | undefined>, databaseUrl: string): string {
  if (env.BLOB_DIR) return env.BLOB_DIR;
  if (databaseUrl.startsWith('sqlite:')) {
    let path = databaseUrl.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (path === '' || path === ':memory:') return join(tmpdir(), `fleet-blobs-${process.pid}`);
    return join(dirname(path), 'blobs');
  }
  return './data/blobs';
}

const DEFAULT_DOCUMENT_TYPES =
  'application/pdf,image/jpeg,image/png,image/gif,image/heic,image/tiff,image/webp,text/plain';

function contentTypes(env: Record<string, string | undefined>): string[] {
  const raw = env.DOCUMENT_CONTENT_TYPES || DEFAULT_DOCUMENT_TYPES;
  const list = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const bad = list.find((t) => !/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(t));
  if (bad !== undefined || list.length === 0) {
    throw new ConfigError(
      `DOCUMENT_CONTENT_TYPES must be a comma-separated list of media types such as application/pdf, got "${raw}"`,
    );
  }
  return list;
}

const SQLITE_SYNCHRONOUS = ['full', 'normal'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS)[number];

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  const port = whole(env, 'PORT', 3000, 0, 65535, configError);
  const host = env.HOST || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL || 'sqlite:./data/fleet.db';
  databaseKind(databaseUrl);
  const sqliteSynchronous = (env.SQLITE_SYNCHRONOUS || 'full') as SqliteSynchronous;
  if (!SQLITE_SYNCHRONOUS.includes(sqliteSynchronous)) {
    throw new ConfigError(
      `SQLITE_SYNCHRONOUS must be one of ${SQLITE_SYNCHRONOUS.join(', ')}, got "${sqliteSynchronous}"`,
    );
  }
  const redisUrl = env.REDIS_URL || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`);
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const logFormat = (env.LOG_FORMAT?.trim().toLowerCase() || 'auto') as LogFormat;
  if (!LOG_FORMATS.includes(logFormat)) {
    throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${env.LOG_FORMAT}"`);
  }
  const publicUrl = (env.PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got "${publicUrl}"`);
  }
  const retention = retentionConfig(env, configError);
  const telemetry = telemetryConfig(env, configError);
  return {
    port,
    trustProxy: trustProxy(env, configError),
    host,
    databaseUrl,
    sqliteSynchronous,
    redisUrl,
    logLevel,
    logFormat,
    logSummaryIntervalS: whole(env, 'LOG_SUMMARY_INTERVAL_S', 60, 0, 86_400, configError),
    publicUrl,
    bodyLimitBytes: whole(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600, configError),
    readCacheMaxBytes: whole(env, 'READ_CACHE_MAX_BYTES', 67_108_864, 0, 17_179_869_184, configError),
    shutdownGraceMs: whole(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000, configError),
    oauthRefreshTokenTtlS: whole(env, 'OAUTH_REFRESH_TOKEN_TTL_S', 2_592_000, 7200, 31_536_000, configError),
    oauthRefreshReuseGraceS: whole(env, 'OAUTH_REFRESH_REUSE_GRACE_S', 30, 0, 300, configError),
    oauthTokenCacheMs: whole(env, 'OAUTH_TOKEN_CACHE_MS', 1000, 0, 60_000, configError),
    oauthTokenCacheSize: whole(env, 'OAUTH_TOKEN_CACHE_SIZE', 10_000, 0, 10_000_000, configError),
    webSessionTtlS: whole(env, 'WEB_SESSION_TTL_S', 43_200, 60, 2_592_000, configError),
    consoleOfflineAfterMin: whole(env, 'CONSOLE_OFFLINE_AFTER_MIN', 10, 1, 10_080, configError),
    map: mapConfig(env, configError),
    cookieSecret: cookieSecret(env),
    authFailures: failurePolicy(env, configError),
    blobDir: blobDir(env, databaseUrl),
    documentMaxBytes: whole(env, 'DOCUMENT_MAX_BYTES', 10_485_760, 1, 1_073_741_824, configError),
    documentContentTypes: contentTypes(env),
    // The accepted age of a device record stops where raw records are kept (config/retention.ts).
    telemetry: { ...telemetry, maxAgeDays: acceptedAgeDays(telemetry.maxAgeDays, retention) },
    retention,
    webhooks: webhookConfig(env, configError),
    alerts: alertConfig(env, configError),
    limits: limitsConfig(env, configError),
    ops: opsConfig(env, configError),
    shedding: sheddingConfig(env, configError),
    ...overrides,
  };
}
