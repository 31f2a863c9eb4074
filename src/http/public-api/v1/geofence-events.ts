/**
 * /v1/geofences/events (scope geofence_events.read), docs/reference/wire.md §4.23: vehicles entering and leaving
 * geofences, id order, per_page up to 500; filters start_date..end_date (company-local, on the entry),
 * geofence_ids, driver_ids (either end), vehicle_ids, updated_after.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList } from '../../../wire/types.js';
import { momentOf } from '../../../wire/record-dates.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { loadEmbeds } from '../../../wire/embeds.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { GeofenceEvent, geofenceEvent } from '../../../wire/telemetry-events.js';
import { listGeofenceEvents } from '../../../telemetry/queries/derived.js';
import { Day, Moment } from '../../../core/schema.js';

const Query = Type.Object({
  ...pageQuery,
  start_date: Day('First day (YYYY-MM-DD), company-local, inclusive'),
  end_date: Day('Last day (YYYY-MM-DD), company-local, inclusive'),
  geofence_ids: IdList('Only these geofences'),
  driver_ids: IdList('Only visits that began or ended with these drivers'),
  vehicle_ids: IdList('Only these vehicles'),
  updated_after: Type.Optional(Moment('Only events created or changed after this day or instant')),
});

export async function geofenceEventsRoutes(app: Api) {
  app.get(
    '/v1/geofences/events',
    {
      config: { scope: 'geofence_events.read' },
      schema: {
        tags: ['geofences'],
        summary: 'Vehicles entering and leaving geofences',
        querystring: Query,
        response: { 200: listSchema('geofence_events', 'geofence_event', GeofenceEvent), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query, 500);
      const q = req.query;
      const zone = requestTimeZone(req);
      const window = q.start_date || q.end_date ? dateRange(q, zone, { defaultDays: 7 }) : undefined;
      const updatedAfter = q.updated_after ? momentOf('updated_after', q.updated_after, zone) : undefined;
      const f = {
        window,
        updatedAfter,
        geofenceIds: q.geofence_ids,
        driverIds: q.driver_ids,
        vehicleIds: q.vehicle_ids,
      };
      const { rows, total } = await listGeofenceEvents(app.db, req.auth, f, page.per_page, page.offset);
      const e = await loadEmbeds(app.db, req.auth.companyId, {
        users: rows.flatMap((r) => [r.start_driver_id, r.end_driver_id]),
        vehicles: rows.map((r) => r.vehicle_id),
      });
      return listBody(
        'geofence_events',
        'geofence_event',
        rows.map((r) => geofenceEvent(r, e, Date.now())),
        page,
        total,
      );
    },
  );
}
