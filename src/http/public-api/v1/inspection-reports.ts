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
import { STATUS_FILTERS } from '../../../domain/inspections/status.js';
import { InspectionReportUpdateBody } from '../../../domain/inspections/input.js';
import { objectOf } from '../../plumbing/unvalidated.js';
import { inspectionReportsWire } from '../../../wire/pages.js';
import { Day, Enum, Moment } from '../../../core/schema.js';

const opt = Type.Optional;

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
        status: q.status,
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
          body: InspectionReportUpdateBody,
          response: { 200: ReportOne, ...errorResponses },
        },
      },
      async (req) => {
        const { inspection_report, time: _ignored, ...update } = req.body;
        const row = await updateInspectionReport(app.db, req.auth, req.params.id, {
          ...update,
          status: update.status ?? inspection_report?.status,
        });
        return one(req.auth.companyId, row);
      },
    );
  }
}
