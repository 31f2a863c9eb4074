/**
 * /v1/driving_periods (scope driving_periods.read), docs/reference/wire.md §4.16: newest first (start_time
 * descending), matched on start_time within start_date..end_date (UTC days unless X-Time-Zone is
 * sent; default the last 7 days); a range over 30 days is a 400.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { IdList } from '../../../wire/types.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { loadEmbeds } from '../../../wire/embeds.js';
import { DrivingPeriod, drivingPeriod } from '../../../wire/telemetry-events.js';
import { listDrivingPeriods } from '../../../telemetry/queries/derived.js';
import { Day } from '../../../core/schema.js';

const Query = Type.Object({
  ...pageQuery,
  start_date: Day('First day (YYYY-MM-DD), inclusive'),
  end_date: Day('Last day (YYYY-MM-DD), inclusive; at most 30 days after start_date'),
  driver_ids: IdList('Only periods of these drivers'),
  vehicle_ids: IdList('Only periods of these vehicles'),
  assigned_to_driver: Type.Optional(
    Type.Boolean({ description: 'true: only periods with a driver; false: only unidentified driving' }),
  ),
});

export async function drivingPeriodsRoutes(app: Api) {
  app.get(
    '/v1/driving_periods',
    {
      config: { scope: 'driving_periods.read' },
      schema: {
        tags: ['driving'],
        summary: 'Driving periods derived from vehicle motion',
        querystring: Query,
        response: { 200: listSchema('driving_periods', 'driving_period', DrivingPeriod), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const window = dateRange(req.query, requestTimeZone(req), { defaultDays: 7, maxDays: 30 });
      const q = req.query;
      const { rows, total } = await listDrivingPeriods(
        app.db,
        req.auth,
        { window, driverIds: q.driver_ids, vehicleIds: q.vehicle_ids, assignedToDriver: q.assigned_to_driver },
        page.per_page,
        page.offset,
      );
      const e = await loadEmbeds(app.db, req.auth.companyId, {
        users: rows.map((r) => r.driver_id),
        vehicles: rows.map((r) => r.vehicle_id),
      });
      const now = Date.now();
      return listBody(
        'driving_periods',
        'driving_period',
        rows.map((r) => drivingPeriod(r, e, now)),
        page,
        total,
      );
    },
  );
}
