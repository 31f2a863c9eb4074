/**
 * /v1/speeding_events (scope speeding_events.read): the speeding events we derive (docs/telemetry.md),
 * id order, filtered by driver_ids, vehicle_ids and start_date..end_date (on start_time, as
 * /v1/driver_performance_events). The envelope is the shared one plus `total`, `per_page` and
 * `page_no` at the top level, where real clients of this endpoint read them.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, Pagination, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList } from '../../../wire/types.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { loadEmbeds } from '../../../wire/embeds.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { SpeedingEvent, speedingEvent } from '../../../wire/speeding-event.js';
import { listPerformanceEvents } from '../../../telemetry/queries/derived.js';
import { Day } from '../../../core/schema.js';

const Query = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Only events of these drivers'),
  vehicle_ids: IdList('Only events of these vehicles'),
  start_date: Day('First day (YYYY-MM-DD), inclusive, on the start time'),
  end_date: Day('Last day (YYYY-MM-DD), inclusive, on the start time'),
});

const Body = Type.Object({
  ...listSchema('speeding_events', 'speeding_event', SpeedingEvent).properties,
  ...Pagination.properties,
});

export async function speedingEventsRoutes(app: Api) {
  app.get(
    '/v1/speeding_events',
    {
      config: { scope: 'speeding_events.read' },
      schema: {
        tags: ['safety'],
        summary: 'Speeding events',
        querystring: Query,
        response: { 200: Body, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const q = req.query;
      const window = q.start_date || q.end_date ? dateRange(q, requestTimeZone(req), { defaultDays: 7 }) : undefined;
      const f = { window, driverIds: q.driver_ids, vehicleIds: q.vehicle_ids, types: ['speeding'] };
      const { rows, total } = await listPerformanceEvents(app.db, req.auth, f, page.per_page, page.offset);
      const e = await loadEmbeds(app.db, req.auth.companyId, {
        users: rows.map((r) => r.driver_id),
        vehicles: rows.map((r) => r.vehicle_id),
        devices: rows.map((r) => r.device_id),
      });
      const body = listBody(
        'speeding_events',
        'speeding_event',
        rows.map((r) => speedingEvent(r, e)),
        page,
        total,
      );
      return { ...body, ...body.pagination };
    },
  );
}
