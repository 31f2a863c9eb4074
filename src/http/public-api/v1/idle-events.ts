/**
 * /v1/idle_events (scope utilization.idle_events), docs/reference/wire.md §4.15: events overlapping the
 * company-local days start_date..end_date (default the last 7 days, no range cap), end_time ascending.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList } from '../../../wire/types.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { companyZone } from '../../../domain/companies/date-zone.js';
import { loadEmbeds } from '../../../wire/embeds.js';
import { IdleEvent, idleEvent } from '../../../wire/telemetry-events.js';
import { listIdleEvents } from '../../../telemetry/queries/derived.js';
import { Day } from '../../../core/schema.js';

const Query = Type.Object({
  ...pageQuery,
  start_date: Day('First day (YYYY-MM-DD), company-local, inclusive'),
  end_date: Day('Last day (YYYY-MM-DD), company-local, inclusive'),
  driver_ids: IdList('Only events of these drivers'),
  vehicle_ids: IdList('Only events of these vehicles'),
});

export async function idleEventsRoutes(app: Api) {
  app.get(
    '/v1/idle_events',
    {
      config: { scope: 'utilization.idle_events' },
      schema: {
        tags: ['utilization'],
        summary: 'Idle events (engine on, standing longer than the idle threshold)',
        querystring: Query,
        response: { 200: listSchema('idle_events', 'idle_event', IdleEvent), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const window = dateRange(req.query, await companyZone(req, app.db, req.auth.companyId), { defaultDays: 7 });
      const { rows, total } = await listIdleEvents(
        app.db,
        req.auth,
        {
          window,
          driverIds: req.query.driver_ids,
          vehicleIds: req.query.vehicle_ids,
          excludePto: app.config.telemetry.idleExcludePto,
        },
        page.per_page,
        page.offset,
      );
      const e = await loadEmbeds(app.db, req.auth.companyId, {
        users: rows.map((r) => r.driver_id),
        vehicles: rows.map((r) => r.vehicle_id),
        devices: rows.map((r) => r.device_id),
      });
      return listBody(
        'idle_events',
        'idle_event',
        rows.map((r) => idleEvent(r, e)),
        page,
        total,
      );
    },
  );
}
