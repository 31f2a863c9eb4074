/** Shared pieces of the tests of device records in drivers' logs: a duty status record, the log's events, what was announced, a restart. */
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { TestApp } from '../helper.js';
import { at, DAY } from './fixtures.js';

/** A `duty_status` device record at `s` seconds after the test's T0. */
export const duty = (s: number, driverId: number, status: string, extra: Record<string, unknown> = {}) => ({
  type: 'duty_status',
  time: at(s),
  driver_id: driverId,
  status,
  ...extra,
});

/** The log's events of a driver on the test day: [status, start s, end s or null] relative to the test's T0. */
export async function dayEvents(
  t: TestApp,
  driverId: number,
  date = DAY,
): Promise<Array<[string, number, number | null]>> {
  const res = await t.call({ url: `/v1/logs?driver_ids[]=${driverId}&start_date=${date}&end_date=${date}` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const rel = (iso: string) => (Date.parse(iso) - Date.parse(at(0))) / 1000;
  return res.body.logs[0].log.events.map(({ event: e }: any) => [
    e.type,
    rel(e.start_time),
    e.end_time === null ? null : rel(e.end_time),
  ]);
}

/** The domain events of one action announced so far, oldest first: trigger, subject id, payload. */
export async function announced(t: TestApp, action: string) {
  const rows = await t.db.kysely
    .selectFrom('domain_events')
    .select(['trigger', 'subject_id', 'data'])
    .where('company_id', '=', t.company.id)
    .where('action', '=', action)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ trigger: r.trigger, subject: Number(r.subject_id), data: JSON.parse(r.data) }));
}

/** The same database served by a new app, as by a restarted server (a telemetry runner of its own): `t` with its app replaced. */
export async function restarted(t: TestApp): Promise<TestApp> {
  const app = await buildApp(t.app.config, { db: t.db, skipMigrations: true });
  return {
    ...t,
    app,
    async call(opts) {
      const { as, ...rest } = opts;
      const res = await app.inject({
        ...rest,
        headers: { ...(as ?? t.company).headers, ...(rest.headers ?? {}) },
      } as InjectOptions);
      return {
        status: res.statusCode,
        body: res.body ? JSON.parse(res.body) : undefined,
        headers: res.headers,
        raw: res.body,
      };
    },
  };
}
