/** /v2/vehicle_utilization and /v2/driver_utilization: the same rollups as /v1 (src/http/public-api/v1/utilization.ts). */
import type { Api } from '../../api.js';
import { registerUtilization } from '../v1/utilization.js';

export async function utilizationV2Routes(app: Api) {
  registerUtilization(app, 2);
}
