/**
 * /v1/ifta/trips (scope ifta_reports.trips) and /v1/ifta/summary (scope ifta_reports.summary),
 * docs/reference/wire.md §4.10 and §9: filters start_date, end_date (company-local days, inclusive; default the
 * last 7 days), jurisdictions, vehicle_ids, fuel_type. Trips: one row per IFTA vehicle, jurisdiction
 * and day, by date, vehicle id and jurisdiction. Summary: one row per vehicle and jurisdiction over
 * the range under the same `ifta_trips`/`ifta_trip` keys, by vehicle id and jurisdiction.
 * docs/ifta.md describes how the distance is derived.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery } from '../../plumbing/envelope.js';
import { validation } from '../../../core/errors.js';
import { IdList, StrList } from '../../../wire/types.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { loadEmbeds } from '../../../wire/embeds.js';
import { IftaSummaryItem, IftaTrip, iftaSummaryItem, iftaTrip } from '../../../wire/ifta.js';
import { reportZone } from '../../../domain/companies/date-zone.js';
import { FUEL_TYPES } from '../../../domain/vehicles/fields.js';
import { isJurisdiction, normalizeJurisdiction } from '../../../domain/jurisdictions.js';
import { summaryRows, tripIds, tripRows, type ReportQuery } from '../../../domain/ifta/reports.js';
import { Day } from '../../../core/schema.js';

export const DEFAULT_DAYS = 7;

const Query = Type.Object({
  ...pageQuery,
  start_date: Day(`First day (YYYY-MM-DD), company-local, inclusive; default ${DEFAULT_DAYS - 1} days before end_date`),
  end_date: Day('Last day (YYYY-MM-DD), company-local, inclusive; default today'),
  jurisdictions: StrList('Only these jurisdictions (two-letter codes, e.g. TX, ON)'),
  vehicle_ids: IdList('Only these vehicles'),
  fuel_type: Type.Optional(Type.String({ enum: [...FUEL_TYPES], description: 'Only vehicles with this fuel type' })),
});

type Q = {
  start_date?: string;
  end_date?: string;
  jurisdictions?: string[];
  vehicle_ids?: number[];
  fuel_type?: string;
};

export function jurisdictionsOf(codes: string[] | undefined): string[] | undefined {
  return codes?.map((c) => {
    if (!isJurisdiction(c))
      throw validation(
        'jurisdictions',
        `must hold two-letter codes of US states, DC or Canadian provinces and territories, got "${c}"`,
      );
    return normalizeJurisdiction(c);
  });
}

function reportQuery(q: Q, zone: string): ReportQuery {
  return {
    window: dateRange(q, zone, { defaultDays: DEFAULT_DAYS }),
    zone,
    vehicleIds: q.vehicle_ids,
    jurisdictions: jurisdictionsOf(q.jurisdictions),
    fuelType: q.fuel_type,
  };
}

export async function iftaRoutes(app: Api) {
  const tags = ['ifta'];
  app.get(
    '/v1/ifta/trips',
    {
      config: { scope: 'ifta_reports.trips' },
      schema: {
        tags,
        summary: 'IFTA trip reports: distance per vehicle, jurisdiction and day',
        querystring: Query,
        response: { 200: listSchema('ifta_trips', 'ifta_trip', IftaTrip), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { zone, label } = await reportZone(req, app.db, req.auth.companyId);
      const rows = await tripRows(app.db, req.auth.companyId, reportQuery(req.query, zone));
      const slice = rows.slice(page.offset, page.offset + page.per_page);
      const [ids, e] = await Promise.all([
        tripIds(app.db, req.auth.companyId, slice),
        loadEmbeds(app.db, req.auth.companyId, { vehicles: slice.map((r) => r.vehicleId) }),
      ]);
      return listBody(
        'ifta_trips',
        'ifta_trip',
        slice.map((r, i) => iftaTrip(r, ids[i], e, label)),
        page,
        rows.length,
      );
    },
  );

  app.get(
    '/v1/ifta/summary',
    {
      config: { scope: 'ifta_reports.summary' },
      schema: {
        tags,
        summary: 'IFTA mileage summary: distance per vehicle and jurisdiction over the date range',
        querystring: Query,
        response: { 200: listSchema('ifta_trips', 'ifta_trip', IftaSummaryItem), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { zone, label } = await reportZone(req, app.db, req.auth.companyId);
      const rows = await summaryRows(app.db, req.auth.companyId, reportQuery(req.query, zone));
      const slice = rows.slice(page.offset, page.offset + page.per_page);
      const e = await loadEmbeds(app.db, req.auth.companyId, { vehicles: slice.map((r) => r.vehicleId) });
      return listBody(
        'ifta_trips',
        'ifta_trip',
        slice.map((r) => iftaSummaryItem(r, e, label)),
        page,
        rows.length,
      );
    },
  );
}
