/**
 * GET /v1/hours_of_service (scope hos_logs.hours_of_service): daily totals per driver and log day of the
 * driver's home-terminal zone, under the wire key `hours_of_services`. Same rows and ids as /v1/logs.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList } from '../../../wire/types.js';
import { HoursOfService, hoursOfServiceWire } from '../../../wire/hos.js';
import { listLogs } from '../../../domain/hos/queries.js';
import { Day } from '../../../core/schema.js';

const Query = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Totals of these drivers'),
  start_date: Day(
    "First log day (YYYY-MM-DD, the driver's home-terminal day), inclusive; default 6 days before end_date",
  ),
  end_date: Day('Last log day, inclusive; default today'),
});

export async function hoursOfServiceRoutes(app: Api) {
  app.get(
    '/v1/hours_of_service',
    {
      config: { scope: 'hos_logs.hours_of_service' },
      schema: {
        tags: ['hours_of_service'],
        summary: 'Daily off-duty, on-duty, sleeper, driving and waiting seconds per driver',
        querystring: Query,
        response: { 200: listSchema('hours_of_services', 'hours_of_service', HoursOfService), ...errorResponses },
      },
    },
    async (req) => {
      const q = req.query;
      const page = pageOf(q);
      const logs = await listLogs(
        app.db,
        req.auth,
        { driverIds: q.driver_ids, startDate: q.start_date, endDate: q.end_date },
        'all',
        page.per_page,
        page.offset,
        Date.now(),
      );
      return listBody(
        'hours_of_services',
        'hours_of_service',
        logs.items.map((x) => hoursOfServiceWire(x.id, x.detail)),
        page,
        logs.total,
      );
    },
  );
}
