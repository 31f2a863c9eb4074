/**
 * /v1/vehicle_locations (scope locations.vehicle_locations_list) and /v1/vehicle_locations/:id?date=
 * (locations.vehicle_locations_single), docs/reference/wire.md §4.4. The list serves the v2 superset (§4.4); the
 * history is every stored point of one company-local day (X-Time-Zone when sent), unpaginated (§3.5).
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList, IdParams } from '../../../wire/types.js';
import { HistoryPointV1, LocationVehicle, locationVehicle } from '../../../wire/vehicle-location.js';
import { historyJsonV1, historyTailsV1 } from '../../../wire/history-json.js';
import { loadEmbeds } from '../../../wire/embeds.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { validDay } from '../../../wire/record-dates.js';
import { latestOf, vehicleHistory, vehicleHistoryJson, vehiclesPage } from '../../../telemetry/queries/locations.js';
import type { Tenant } from '../../../domain/tenant.js';
import { DAY_PATTERN } from '../../../core/schema.js';

const ListQuery = Type.Object({ ...pageQuery, vehicle_ids: IdList('Only these vehicles') });
const HistoryQuery = Type.Object({
  date: Type.String({
    pattern: DAY_PATTERN,
    description: 'The day (YYYY-MM-DD), company-local unless X-Time-Zone is sent',
  }),
});
export const tags = ['locations'];

/** The v1/v2 list: the company's vehicles with their current location and current driver. */
export function registerLocationList(app: Api, path: string) {
  app.get(
    path,
    {
      config: { scope: 'locations.vehicle_locations_list' },
      schema: {
        tags,
        summary: 'Vehicles with their current location and driver',
        querystring: ListQuery,
        response: { 200: listSchema('vehicles', 'vehicle', LocationVehicle), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await vehiclesPage(
        app.db,
        req.auth,
        { vehicleIds: req.query.vehicle_ids },
        page.per_page,
        page.offset,
      );
      const latest = await latestOf(
        app.db,
        req.auth.companyId,
        rows.map((v) => v.id),
      );
      const embeds = await loadEmbeds(app.db, req.auth.companyId, {
        users: rows.map((v) => latest.get(v.id)?.driver_id ?? v.current_driver_id),
      });
      return listBody(
        'vehicles',
        'vehicle',
        rows.map((v) => locationVehicle(v, latest.get(v.id), embeds)),
        page,
        total,
      );
    },
  );
}

export async function historyEmbeds(app: Api, t: Tenant, rows: Array<{ driver_id: number | null; device_id: number }>) {
  return loadEmbeds(app.db, t.companyId, {
    users: rows.map((r) => r.driver_id),
    devices: rows.map((r) => r.device_id),
  });
}

export async function vehicleLocationsRoutes(app: Api) {
  registerLocationList(app, '/v1/vehicle_locations');

  app.get(
    '/v1/vehicle_locations/:id',
    {
      // The spec: at most 10 simultaneous requests (RATE_LIMIT_LOCATION_HISTORY_CONCURRENT) per company.
      config: { scope: 'locations.vehicle_locations_single', concurrencyLimit: 'location_history' },
      schema: {
        tags,
        summary: "One vehicle's location history for a day (every point, no pagination)",
        params: IdParams,
        querystring: HistoryQuery,
        response: {
          200: Type.Object({ vehicle_locations: Type.Array(Type.Object({ vehicle_location: HistoryPointV1 })) }),
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const zone = requestTimeZone(req);
      // Checked under its own name first: the window helper would name start_date, which this client never sent.
      if (req.query.date) validDay('date', req.query.date);
      const w = dateRange({ start_date: req.query.date, end_date: req.query.date }, zone, { defaultDays: 1 });
      const type = 'application/json; charset=utf-8';
      const body = await vehicleHistoryJson(app.db, req.auth, req.params.id, w.start, w.end, async (driverIds) =>
        historyTailsV1(driverIds, await loadEmbeds(app.db, req.auth.companyId, { users: driverIds })),
      );
      if (body !== null) return reply.type(type).send(body as never);
      const rows = await vehicleHistory(app.db, req.auth, req.params.id, w.start, w.end);
      const embeds = await historyEmbeds(app, req.auth, rows);
      return reply.type(type).send(historyJsonV1(rows, embeds) as never);
    },
  );
}
