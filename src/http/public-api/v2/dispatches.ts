/**
 * /v2/dispatches: the v1 routes, service and state machine, with `dispatch_trips` on the wire
 * (src/http/public-api/v1/dispatches.ts, src/wire/dispatch.ts).
 */
import type { Api } from '../../api.js';
import { registerDispatches } from '../v1/dispatches.js';

export async function dispatchesV2Routes(app: Api) {
  registerDispatches(app, 2);
}
