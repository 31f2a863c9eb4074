/**
 * GET /v1/logs (scope hos_logs.logs): one log per driver and log day with its events, vehicles, remarks,
 * cycle restarts, violations, form-and-manner errors and distance. Days are each driver's home-terminal
 * days (not X-Time-Zone); the default window is the last 7 days. Ordered by date, then driver id.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import type { Db } from '../../../storage/db.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList } from '../../../wire/types.js';
import { vehicleSummaryRows, type VehicleSummaryRow } from '../../../domain/vehicles/summaries.js';
import { Log, logWire } from '../../../wire/hos.js';
import { listLogs, type LogPage } from '../../../domain/hos/queries.js';
import { LOG_STATUSES, type LogStatus } from '../../../domain/hos/log-days.js';
import { Day } from '../../../core/schema.js';

export const LogsQuery = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Logs of these drivers'),
  start_date: Day(
    "First log day (YYYY-MM-DD, the driver's home-terminal day), inclusive; default 6 days before end_date",
  ),
  end_date: Day('Last log day, inclusive; default today'),
  status: Type.Optional(
    Type.String({
      enum: [...LOG_STATUSES],
      description: 'all (default), compliant, hos, form_and_manner, missing_dvirs',
    }),
  ),
});

async function vehiclesOf(db: Db, companyId: number, page: LogPage): Promise<Map<number, VehicleSummaryRow>> {
  return vehicleSummaryRows(
    db,
    companyId,
    page.items.flatMap((x) => x.detail.vehicleIds),
  );
}

export async function logsRoutes(app: Api) {
  app.get(
    '/v1/logs',
    {
      config: { scope: 'hos_logs.logs' },
      schema: {
        tags: ['hours_of_service'],
        summary: 'Daily hours-of-service logs (docs/hos.md)',
        querystring: LogsQuery,
        response: { 200: listSchema('logs', 'log', Log), ...errorResponses },
      },
    },
    async (req) => {
      const q = req.query;
      const page = pageOf(q);
      const logs = await listLogs(
        app.db,
        req.auth,
        { driverIds: q.driver_ids, startDate: q.start_date, endDate: q.end_date },
        (q.status ?? 'all') as LogStatus,
        page.per_page,
        page.offset,
        Date.now(),
      );
      const vehicles = await vehiclesOf(app.db, req.auth.companyId, logs);
      return listBody(
        'logs',
        'log',
        logs.items.map((x) => logWire(x.id, x.meta, x.detail, vehicles)),
        page,
        logs.total,
      );
    },
  );
}
