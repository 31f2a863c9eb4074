/**
 * /v1/inspection_reports (scope inspection_reports.read) and the inspection report update,
 * `PUT /v1/inspection_reports/:id` (scope inspection_reports.manage; also served at /v2, where real
 * clients send it). The list window is start_date..end_date in X-Time-Zone days on the inspection time;
 * without dates and without updated_after it covers the last week.
 */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import {
  errorResponses,
  listBody,
  listSchema,
  oneBody,
  oneSchema,
  pageOf,
  pageQuery,
} from '../../plumbing/envelope.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { IdList, IdParams } from '../../../wire/types.js';
import { momentOf, windowOf } from '../../../wire/record-dates.js';
import { InspectionReport } from '../../../wire/inspection-report.js';
import * as reports from '../../../domain/inspections/service.js';
import { updateInspectionReport } from '../../../domain/inspections/update.js';
import { DEFECT_STATUSES, SIGN_OFF_STATUSES, STATUS_FILTERS } from '../../../domain/inspections/status.js';
import { objectOf } from '../../plumbing/unvalidated.js';
import { inspectionReportsWire } from '../../../wire/pages.js';
import { Id } from '../../../core/ids.js';
import { Day, Moment } from '../../../core/schema.js';

const opt = Type.Optional;
const Enum = (values: readonly string[], description?: string) => Type.String({ enum: [...values], description });
const S = (max = 255) => Type.String({ maxLength: max });

/** One week: the default window when neither dates nor updated_after are given. */
const DEFAULT_DAYS = 7;

const ListQuery = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Reports of these drivers'),
  vehicle_ids: IdList('Reports on these vehicles'),
  start_date: Day('First day (YYYY-MM-DD) of the inspection, inclusive; default one week before end_date or today'),
  end_date: Day('Last day (YYYY-MM-DD) of the inspection, inclusive; default today'),
  status: opt(
    Enum(STATUS_FILTERS, 'all (default), with_defects, with_no_defects, with_signature_missing, or a report status'),
  ),
  updated_after: opt(Moment('Only reports created or changed after this day or datetime')),
});

const LookupQuery = Type.Object({
  external_id: Type.String({ minLength: 1, maxLength: 255 }),
  integration_name: Type.String({ minLength: 1, maxLength: 255 }),
});

const DefectStatusEntry = Type.Object({
  status: Enum(DEFECT_STATUSES),
  resolved_defects: Type.Array(Id('Defect id of this report'), { minItems: 1, maxItems: 500 }),
  mechanic_id: opt(Id('The mechanic (an admin or fleet user); default the acting admin')),
  mechanic_name: opt(
    Type.String({ maxLength: 255, description: 'Accepted; the mechanic is identified by mechanic_id' }),
  ),
  mechanic_note: opt(Type.Union([S(2000), Type.Null()])),
  mechanic_signed_at: opt(Type.String({ maxLength: 64 })),
});

const UpdateBody = Type.Object({
  external_ids_attributes: opt(
    Type.Array(Type.Object({ external_id: S(), integration_name: S() }), {
      maxItems: 50,
      description: 'Replaces the external ids',
    }),
  ),
  status: opt(
    Enum(
      SIGN_OFF_STATUSES,
      'Mechanic sign-off for every open defect: corrected (repaired) or harmless (no repair needed)',
    ),
  ),
  inspection_report: opt(Type.Object({ status: opt(Enum(SIGN_OFF_STATUSES)) })),
  defect_statuses: opt(
    Type.Array(DefectStatusEntry, {
      maxItems: 100,
      description: 'Per-defect sign-off; a single entry object is accepted too',
    }),
  ),
  mechanic_id: opt(Id('The mechanic signing off (an admin or fleet user); default the acting admin')),
  mechanic_signed_at: opt(Type.String({ maxLength: 64 })),
  mechanic_note: opt(Type.Union([S(2000), Type.Null()])),
  mechanic_signature_url: opt(Type.Union([S(2000), Type.Null()])),
  time: opt(Type.String({ maxLength: 64, description: 'Accepted and ignored' })),
});

const ReportList = listSchema('inspection_reports', 'inspection_report', InspectionReport);
const ReportOne = oneSchema('inspection_report', InspectionReport);
const tags = ['inspection_reports'];

export async function inspectionReportsRoutes(app: Api) {
  const read = { scope: 'inspection_reports.read' } as const;
  const write = { scope: 'inspection_reports.manage' } as const;
  const one = async (companyId: number, row: reports.ReportRow) =>
    oneBody('inspection_report', (await inspectionReportsWire(app.db, companyId, [row]))[0]);

  app.get(
    '/v1/inspection_reports',
    {
      config: read,
      schema: {
        tags,
        summary: 'List inspection reports (DVIRs)',
        querystring: ListQuery,
        response: { 200: ReportList, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const zone = requestTimeZone(req);
      const q = req.query;
      const updatedAfter = q.updated_after === undefined ? undefined : momentOf('updated_after', q.updated_after, zone);
      const window = windowOf(q, zone, q.start_date || q.end_date || !updatedAfter ? DEFAULT_DAYS : undefined);
      const filters = {
        driver_ids: q.driver_ids,
        vehicle_ids: q.vehicle_ids,
        status: q.status as reports.ReportFilters['status'],
        window,
        updatedAfter,
      };
      const { rows, total } = await reports.listReports(app.db, req.auth, filters, page.per_page, page.offset);
      return listBody(
        'inspection_reports',
        'inspection_report',
        await inspectionReportsWire(app.db, req.auth.companyId, rows),
        page,
        total,
      );
    },
  );

  app.get(
    '/v1/inspection_reports/lookup_by_external_id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Find an inspection report by external_id and integration_name',
        querystring: LookupQuery,
        response: { 200: ReportOne, ...errorResponses },
      },
    },
    async (req) => one(req.auth.companyId, await reports.lookupReport(app.db, req.auth, req.query)),
  );

  for (const version of [1, 2]) {
    app.put(
      `/v${version}/inspection_reports/:id`,
      {
        config: write,
        // Real clients send defect_statuses as one object; it is read as a list of one.
        preValidation: async (req) => {
          const body = objectOf(req.body);
          if (body && objectOf(body.defect_statuses)) body.defect_statuses = [body.defect_statuses];
        },
        schema: {
          tags,
          summary:
            'Update an inspection report: external ids and the mechanic sign-off (docs/assets-inspections-devices.md)',
          params: IdParams,
          body: UpdateBody,
          response: { 200: ReportOne, ...errorResponses },
        },
      },
      async (req) => {
        const b = req.body;
        const row = await updateInspectionReport(app.db, req.auth, req.params.id, {
          external_ids_attributes: b.external_ids_attributes,
          status: (b.status ?? b.inspection_report?.status) as (typeof SIGN_OFF_STATUSES)[number] | undefined,
          defect_statuses: b.defect_statuses as Parameters<typeof updateInspectionReport>[3]['defect_statuses'],
          mechanic_id: b.mechanic_id,
          mechanic_signed_at: b.mechanic_signed_at,
          mechanic_note: b.mechanic_note,
          mechanic_signature_url: b.mechanic_signature_url,
        });
        return one(req.auth.companyId, row);
      },
    );
  }
}
