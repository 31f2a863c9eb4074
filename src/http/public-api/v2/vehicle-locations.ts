/** /v2/vehicle_locations: the v1 list (which already serves the v2 superset, docs/reference/wire.md §4.4). */
import type { Api } from '../../api.js';
import { registerLocationList } from '../v1/vehicle-locations.js';

export async function vehicleLocationsV2Routes(app: Api) {
  registerLocationList(app, '/v2/vehicle_locations');
}
