/**
 * Utilization (docs/reference/wire.md §4.17): /v1 and /v2 `vehicle_utilization` (`vehicle_utilizations[].vehicle_utilization`,
 * every vehicle, zeros and a message when inactive; scope utilization.vehicle_utilization) and
 * `driver_utilization` (`driver_idle_rollups[].driver_idle_rollup`, every driver; scope
 * utilization.driver_utilization). Window: company-local start_date..end_date, default the last 7 days.
 * Times in seconds, fuel in gallons, distance in miles.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList, NStr } from '../../../wire/types.js';
import { UserSummary, VehicleSummary, userSummary, vehicleSummary } from '../../../wire/summaries.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { gallons, miles } from '../../../wire/telemetry-common.js';
import { companyZone } from '../../../domain/companies/date-zone.js';
import { wireTime } from '../../../storage/values.js';
import { driverUtilization, utilizationPct, vehicleUtilization } from '../../../telemetry/queries/utilization.js';
import { Nullable, Day } from '../../../core/schema.js';

const window = {
  start_date: Day('First day (YYYY-MM-DD), company-local, inclusive; default 6 days before end_date'),
  end_date: Day('Last day (YYYY-MM-DD), company-local, inclusive; default today'),
};
const VehicleQuery = Type.Object({ ...pageQuery, ...window, vehicle_ids: IdList('Only these vehicles') });
const DriverQuery = Type.Object({ ...pageQuery, ...window, driver_ids: IdList('Only these drivers') });

const VehicleUtilization = Type.Object({
  vehicle: VehicleSummary,
  driving_fuel: Type.Number(),
  driving_time: Type.Number(),
  idle_fuel: Type.Number(),
  idle_time: Type.Number(),
  total_distance: Type.Number(),
  total_fuel: Type.Number(),
  utilization_percentage: Type.Number(),
  last_located_at: NStr(),
  message: Type.String(),
});
const DriverRollup = Type.Object({
  driver: Nullable(UserSummary),
  utilization: Type.Number(),
  driving_time: Type.Integer(),
  idle_time: Type.Integer(),
  driving_fuel: Type.Number(),
  idle_fuel: Type.Number(),
});

const g = (l: number) => gallons(l) ?? 0;

export function registerUtilization(app: Api, version: 1 | 2) {
  app.get(
    `/v${version}/vehicle_utilization`,
    {
      config: { scope: 'utilization.vehicle_utilization' },
      schema: {
        tags: ['utilization'],
        summary: 'Driving and idle time and fuel per vehicle over a window',
        querystring: VehicleQuery,
        response: {
          200: listSchema('vehicle_utilizations', 'vehicle_utilization', VehicleUtilization),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const w = dateRange(req.query, await companyZone(req, app.db, req.auth.companyId), { defaultDays: 7 });
      const { rows, total } = await vehicleUtilization(
        app.db,
        req.auth,
        w,
        req.query.vehicle_ids,
        page.per_page,
        page.offset,
        app.config.telemetry.idleExcludePto,
      );
      const items = rows.map(({ vehicle, totals: x, lastLocatedAt }) => ({
        vehicle: vehicleSummary(vehicle),
        driving_fuel: g(x.driving_fuel_l),
        driving_time: Math.round(x.driving_s),
        idle_fuel: g(x.idle_fuel_l),
        idle_time: Math.round(x.idle_s),
        total_distance: miles(x.distance_km) ?? 0,
        total_fuel: g(x.driving_fuel_l + x.idle_fuel_l),
        utilization_percentage: utilizationPct(x),
        last_located_at: wireTime(lastLocatedAt),
        message: x.driving_s + x.idle_s > 0 ? '' : 'No engine activity in this period',
      }));
      return listBody('vehicle_utilizations', 'vehicle_utilization', items, page, total);
    },
  );

  app.get(
    `/v${version}/driver_utilization`,
    {
      config: { scope: 'utilization.driver_utilization' },
      schema: {
        tags: ['utilization'],
        summary: 'Driving and idle time and fuel per driver over a window',
        querystring: DriverQuery,
        response: { 200: listSchema('driver_idle_rollups', 'driver_idle_rollup', DriverRollup), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const w = dateRange(req.query, await companyZone(req, app.db, req.auth.companyId), { defaultDays: 7 });
      const { rows, total } = await driverUtilization(
        app.db,
        req.auth,
        w,
        req.query.driver_ids,
        page.per_page,
        page.offset,
        app.config.telemetry.idleExcludePto,
      );
      const items = rows.map(({ driver, totals: x }) => ({
        driver: userSummary(driver),
        utilization: utilizationPct(x),
        driving_time: Math.round(x.driving_s),
        idle_time: Math.round(x.idle_s),
        driving_fuel: g(x.driving_fuel_l),
        idle_fuel: g(x.idle_fuel_l),
      }));
      return listBody('driver_idle_rollups', 'driver_idle_rollup', items, page, total);
    },
  );
}

export async function utilizationRoutes(app: Api) {
  registerUtilization(app, 1);
}
