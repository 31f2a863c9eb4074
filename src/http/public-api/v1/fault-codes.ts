/**
 * /v1/fault_codes (scope fault_codes.read), docs/reference/wire.md §4.13: the company's fault code records, id
 * order; `updated_after` (a day or a datetime with offset) for incremental sync, `vehicle_ids`, `status`.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { IdList } from '../../../wire/types.js';
import { momentOf } from '../../../wire/record-dates.js';
import { loadEmbeds } from '../../../wire/embeds.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { FaultCode, faultCode } from '../../../wire/telemetry-events.js';
import { faultObservationTotals, listFaultCodes } from '../../../telemetry/queries/derived.js';
import { Moment } from '../../../core/schema.js';

const Query = Type.Object({
  ...pageQuery,
  updated_after: Type.Optional(Moment('Only records created or changed after this day or instant')),
  vehicle_ids: IdList('Only these vehicles'),
  status: Type.Optional(Type.String({ enum: ['open', 'closed'] })),
});

export async function faultCodesRoutes(app: Api) {
  app.get(
    '/v1/fault_codes',
    {
      config: { scope: 'fault_codes.read' },
      schema: {
        tags: ['vehicles'],
        summary: 'Engine fault codes (J1939, OBD-II, J1708) opened and closed',
        querystring: Query,
        response: { 200: listSchema('fault_codes', 'fault_code', FaultCode), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const q = req.query;
      const updatedAfter = q.updated_after
        ? momentOf('updated_after', q.updated_after, requestTimeZone(req))
        : undefined;
      const { rows, total } = await listFaultCodes(
        app.db,
        req.auth,
        { updatedAfter, vehicleIds: q.vehicle_ids, status: q.status },
        page.per_page,
        page.offset,
      );
      const keys = [...new Set(rows.map((r) => r.fault_key))];
      const vehicleIds = [...new Set(rows.map((r) => r.vehicle_id))];
      const sumOf = await faultObservationTotals(app.db, req.auth, vehicleIds, keys);
      const e = await loadEmbeds(app.db, req.auth.companyId, {
        vehicles: vehicleIds,
        devices: rows.map((r) => r.device_id),
      });
      return listBody(
        'fault_codes',
        'fault_code',
        rows.map((r) => faultCode(r, e, sumOf.get(`${r.vehicle_id}:${r.fault_key}`) ?? r.num_observations)),
        page,
        total,
      );
    },
  );
}
