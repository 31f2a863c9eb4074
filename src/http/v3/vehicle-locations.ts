/**
 * /v3/vehicle_locations (active vehicles with an ELD or a known location; `vehicle_id`,
 * `vehicle_status`; date parameters ignored) and /v3/vehicle_locations/:id?start_date&end_date
 * (inclusive company-local days, at most 3 months, unpaginated; `updated_after` accepted and ignored).
 */
import { Type } from 'typebox';
import type { Api } from '../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../plumbing/envelope.js';
import { Id, IdParams } from '../../wire/types.js';
import { Day } from '../../wire/record-dates.js';
import { HistoryPointV3, LocationVehicleV3, locationVehicleV3 } from '../../wire/vehicle-location.js';
import { historyPointsV3 } from '../../wire/history-json.js';
import { requestTimeZone } from '../../core/time-zone.js';
import { dateRange } from '../../wire/telemetry-dates.js';
import { latestOf, vehicleHistorySlices, vehiclesPage } from '../../telemetry/queries/locations.js';
import { describePlace } from '../../telemetry/geocode/places.js';
import { historyEmbeds, tags } from '../v1/vehicle-locations.js';

const ListQuery = Type.Object({
  ...pageQuery,
  vehicle_id: Type.Optional(Id('Only this vehicle')),
  vehicle_status: Type.Optional(Type.String({ enum: ['active', 'inactive', 'deactivated'] })),
});
const HistoryQuery = Type.Object({
  start_date: Day('First day (YYYY-MM-DD), inclusive; required'),
  end_date: Day('Last day (YYYY-MM-DD), inclusive; required; at most 3 months after start_date'),
  updated_after: Type.Optional(Type.String({ description: 'Accepted and ignored, as by the real API' })),
});

export async function vehicleLocationsV3Routes(app: Api) {
  app.get(
    '/v3/vehicle_locations',
    {
      config: { scope: 'locations.vehicle_locations_list' },
      schema: {
        tags,
        summary: 'Active vehicles with a gateway and their current location',
        querystring: ListQuery,
        response: { 200: listSchema('vehicles', 'vehicle', LocationVehicleV3), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const filter = {
        vehicleIds: req.query.vehicle_id ? [req.query.vehicle_id] : undefined,
        gatewayOnly: true,
        status: req.query.vehicle_status,
      };
      const { rows, total } = await vehiclesPage(app.db, req.auth, filter, page.per_page, page.offset);
      const latest = await latestOf(
        app.db,
        req.auth.companyId,
        rows.map((v) => v.id),
      );
      return listBody(
        'vehicles',
        'vehicle',
        rows.map((v) => locationVehicleV3(v, latest.get(v.id), describePlace)),
        page,
        total,
      );
    },
  );

  app.get(
    '/v3/vehicle_locations/:id',
    {
      config: { scope: 'locations.vehicle_locations_single' },
      schema: {
        tags,
        summary: "One vehicle's location history over up to 3 months of days (every point, no pagination)",
        params: IdParams,
        querystring: HistoryQuery,
        response: {
          200: Type.Object({ vehicle_locations: Type.Array(Type.Object({ vehicle_location: HistoryPointV3 })) }),
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const zone = requestTimeZone(req);
      const w = dateRange(req.query, zone, { defaultDays: 1, maxMonths: 3, required: true });
      // Read and rendered a day at a time, the event loop free in between (vehicleHistorySlices).
      const parts: string[] = [];
      for await (const rows of vehicleHistorySlices(app.db, req.auth, req.params.id, w.start, w.end)) {
        if (rows.length > 0) parts.push(historyPointsV3(rows, await historyEmbeds(app, req.auth, rows)));
      }
      const body = `{"vehicle_locations":[${parts.join(',')}]}`;
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
}
