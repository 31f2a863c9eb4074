/** /v1/driver_locations (scope locations.driver_locations), docs/reference/wire.md §4.5: drivers with where they are and in which vehicle. */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList } from '../../../wire/types.js';
import { DriverLocationUser, driverLocationUser } from '../../../wire/vehicle-location.js';
import { driverLocations } from '../../../telemetry/queries/driver-locations.js';

const Query = Type.Object({ ...pageQuery, driver_ids: IdList('Only these drivers') });

export async function driverLocationsRoutes(app: Api) {
  app.get(
    '/v1/driver_locations',
    {
      config: { scope: 'locations.driver_locations' },
      schema: {
        tags: ['locations'],
        summary: 'Drivers with their current location (of the vehicle they are logged into) and vehicle',
        querystring: Query,
        response: { 200: listSchema('users', 'user', DriverLocationUser), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await driverLocations(app.db, req.auth, req.query.driver_ids, page.per_page, page.offset);
      return listBody(
        'users',
        'user',
        rows.map((r) => driverLocationUser(r.user, r.fix, r.vehicle)),
        page,
        total,
      );
    },
  );
}
