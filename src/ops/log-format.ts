/**
 * The app's logger options (docs/operations.md, Logs): pino at LOG_LEVEL, writing either one JSON
 * object per line (what log collectors read) or, on a terminal, one readable line per entry with the
 * local time, made by pino-pretty. LOG_FORMAT chooses; `auto` (the default) looks at the destination:
 * a TTY gets pretty lines, a pipe or a file JSON.
 *
 * Pretty lines are formatted in the process, synchronously, by pino-pretty's `prettyFactory` (no
 * worker thread, no transport): a terminal reads a few lines a second, and a line written before a
 * crash is not lost in a queue.
 */
import { prettyFactory } from 'pino-pretty';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config/index.js';
import { requestLogSerializer } from '../events/webhooks/log-redaction.js';
import { REQUEST_FIELDS, SUMMARY_FIELDS, saidInMessage } from './request-log.js';

/** Where log lines go: stdout, or a test's collector. `isTTY` as on a Node stream. */
export interface LogDestination {
  write(line: string): unknown;
  isTTY?: boolean;
}

/** True when log lines should be pretty for this destination. */
export function prettyLogs(format: Config['logFormat'], dest: LogDestination): boolean {
  return format === 'pretty' || (format === 'auto' && dest.isTTY === true);
}

/**
 * A request line and the device-traffic summary say their fields in their message already; on a pretty
 * line those fields are not repeated after it (JSON keeps them, for queries). Other lines keep every field.
 */
const hideWhenSaid = (value: unknown, _key: string | number | symbol, log: Record<string, unknown>) =>
  saidInMessage(log) ? undefined : value;
const SAID_FIELDS = [...REQUEST_FIELDS, ...SUMMARY_FIELDS];
const EMPTY_TAIL = / (?:\x1b\[\d+m)*\{\}(?:\x1b\[\d+m)*(\r?\n)$/;

/** A destination that turns pino's JSON lines into pretty ones before writing them to `dest`. */
export function prettyDestination(dest: LogDestination): LogDestination {
  const pretty = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    // pino-pretty types a prettifier's result as a string; `undefined` leaves the field out, and in
    // single-line mode any other value is written as JSON, so the value is handed back as it is.
    customPrettifiers: Object.fromEntries(SAID_FIELDS.map((k) => [k, hideWhenSaid])) as never,
  });
  // A line whose every field was left out would end in an empty `{}` (grey when colored).
  return { write: (line: string) => dest.write(pretty(line).replace(EMPTY_TAIL, '$1')), isTTY: dest.isTTY };
}

/** Fastify's `logger` option for this configuration; `dest` defaults to stdout. */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  dest?: LogDestination,
): FastifyServerOptions['logger'] {
  const target = dest ?? process.stdout;
  const stream = prettyLogs(config.logFormat, target) ? prettyDestination(target) : dest;
  return { level: config.logLevel, serializers: { req: requestLogSerializer }, ...(stream && { stream }) };
}
