/**
 * /v3/vehicle_locations (active vehicles with an ELD or a known location; `vehicle_id`,
 * `vehicle_status`; date parameters ignored) and /v3/vehicle_locations/:id?start_date&end_date
 * (inclusive company-local days, at most 3 months, unpaginated; `updated_after` accepted and ignored).
 */
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdParams } from '../../../wire/types.js';
import { HistoryPointV3, LocationVehicleV3, locationVehicleV3 } from '../../../wire/vehicle-location.js';
import { historyPointsV3 } from '../../../wire/history-json.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { latestOf, vehicleHistorySlices, vehiclesPage, type HistoryRow } from '../../../telemetry/queries/locations.js';
import { answerZone, zonedTimes } from '../../plumbing/zoned-times.js';
import { describePlace } from '../../../telemetry/geocode/places.js';
import { historyEmbeds, tags } from '../v1/vehicle-locations.js';
import { Id } from '../../../core/ids.js';
import { Day } from '../../../core/schema.js';

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
      const w = dateRange(req.query, requestTimeZone(req), { defaultDays: 1, maxMonths: 3, required: true });
      const slices = vehicleHistorySlices(app.db, req.auth, req.params.id, w.start, w.end);
      // The first slice is read before the answer starts, so another company's vehicle is still a 404.
      const first = await slices.next();
      const zone = answerZone(req);
      const render = async (rows: HistoryRow[]) => {
        const text = historyPointsV3(rows, await historyEmbeds(app, req.auth, rows));
        return zone ? zonedTimes(text, zone) : text;
      };
      const body = Readable.from(streamedHistory(first, slices, render));
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
}

/**
 * The answer `{"vehicle_locations":[…]}` written a slice at a time as it is read: up to 3 months of every
 * point is hundreds of megabytes, which one string would hold whole (and the full garbage collections
 * of that heap would stop the node for hundreds of milliseconds). A read failing after the first slice
 * can no longer change the status: the connection is closed mid-answer and the error logged, which a
 * client sees as a truncated body, never as a complete wrong one.
 */
async function* streamedHistory(
  first: IteratorResult<HistoryRow[]>,
  rest: AsyncGenerator<HistoryRow[]>,
  render: (rows: HistoryRow[]) => Promise<string>,
): AsyncGenerator<string> {
  yield '{"vehicle_locations":[';
  let comma = '';
  for (let slice = first; !slice.done; slice = await rest.next()) {
    if (slice.value.length === 0) continue;
    yield comma + (await render(slice.value));
    comma = ',';
  }
  yield ']}';
}
