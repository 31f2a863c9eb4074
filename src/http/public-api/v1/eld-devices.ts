/**
 * /v1/eld_devices (scope eld_devices.read): the company's live ELDs with the vehicle each is bound to.
 * Devices are provisioned by the operator (`fleet device create`), not through the API.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList, StrList } from '../../../wire/types.js';
import { EldDeviceItem } from '../../../wire/eld-device.js';
import { listEldDevices } from '../../../domain/devices/service.js';
import { eldDevicesWire } from '../../../wire/pages.js';

const ListQuery = Type.Object({
  ...pageQuery,
  identifiers: StrList('Devices with these identifiers (serial numbers)'),
  vehicle_ids: IdList('Devices bound to these vehicles'),
});

export async function eldDevicesRoutes(app: Api) {
  app.get(
    '/v1/eld_devices',
    {
      config: { scope: 'eld_devices.read' },
      schema: {
        tags: ['eld_devices'],
        summary: 'List ELD devices',
        querystring: ListQuery,
        response: { 200: listSchema('eld_devices', 'eld_device', EldDeviceItem), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await listEldDevices(app.db, req.auth, req.query, page.per_page, page.offset);
      return listBody('eld_devices', 'eld_device', await eldDevicesWire(app.db, req.auth.companyId, rows), page, total);
    },
  );
}
