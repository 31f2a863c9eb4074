/**
 * /v1/driver_performance_events (scope driver_performance_events.read), docs/reference/wire.md §4.14: hard
 * brakes, hard accelerations, hard corners and speeding, id order; filters driver_ids, vehicle_ids,
 * event_types, start_date..end_date (company-local days, on start_time) and updated_after.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList, StrList } from '../../../wire/types.js';
import { momentOf } from '../../../wire/record-dates.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { loadEmbeds } from '../../../wire/embeds.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { PerformanceEvent, performanceEvent } from '../../../wire/telemetry-events.js';
import { listPerformanceEvents } from '../../../telemetry/queries/derived.js';
import { Day, Moment } from '../../../core/schema.js';

const Query = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Only events of these drivers'),
  vehicle_ids: IdList('Only events of these vehicles'),
  event_types: StrList('hard_brake, hard_accel, hard_corner, speeding'),
  start_date: Day('First day (YYYY-MM-DD), company-local, inclusive'),
  end_date: Day('Last day (YYYY-MM-DD), company-local, inclusive'),
  updated_after: Type.Optional(Moment('Only events created or changed after this day or instant')),
});

export async function driverPerformanceRoutes(app: Api) {
  app.get(
    '/v1/driver_performance_events',
    {
      config: { scope: 'driver_performance_events.read' },
      schema: {
        tags: ['safety'],
        summary: 'Harsh driving and speeding events',
        querystring: Query,
        response: {
          200: listSchema('driver_performance_events', 'driver_performance_event', PerformanceEvent),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const q = req.query;
      const zone = requestTimeZone(req);
      const window = q.start_date || q.end_date ? dateRange(q, zone, { defaultDays: 7 }) : undefined;
      const updatedAfter = q.updated_after ? momentOf('updated_after', q.updated_after, zone) : undefined;
      const f = { window, updatedAfter, driverIds: q.driver_ids, vehicleIds: q.vehicle_ids, types: q.event_types };
      const { rows, total } = await listPerformanceEvents(app.db, req.auth, f, page.per_page, page.offset);
      const e = await loadEmbeds(app.db, req.auth.companyId, {
        users: rows.map((r) => r.driver_id),
        vehicles: rows.map((r) => r.vehicle_id),
        devices: rows.map((r) => r.device_id),
      });
      return listBody(
        'driver_performance_events',
        'driver_performance_event',
        rows.map((r) => performanceEvent(r, e)),
        page,
        total,
      );
    },
  );
}
