/**
 * Beyond the real API (docs/ifta.md):
 * - GET /v1/ifta/quarterly_report?year=&quarter= (scope ifta_reports.summary): the fleet's quarterly
 *   IFTA figures per fuel type, as JSON or as CSV (`Accept: text/csv` or `format=csv`).
 * - /v1/ifta/odometer_calibrations (scopes vehicles.read, vehicles.manage): the odometer offsets a
 *   fleet sets per vehicle; calibrated odometers and distances follow them.
 */
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../api.js';
import {
  errorResponses,
  listBody,
  listSchema,
  oneBody,
  oneSchema,
  pageOf,
  pageQuery,
  Success,
} from '../../plumbing/envelope.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { IdList, IdParams } from '../../../wire/types.js';
import { momentOf } from '../../../wire/record-dates.js';
import { OdometerCalibration, odometerCalibration } from '../../../wire/ifta.js';
import { reportZone } from '../../../domain/companies/date-zone.js';
import { QuarterlyReportSchema, quarterlyReportCsv, quarterlyReportWire } from '../../../wire/ifta-report.js';
import { FUEL_TYPES } from '../../../domain/vehicles/fields.js';
import { quarterlyReport } from '../../../domain/ifta/quarterly.js';
import { createCalibration, deleteCalibration, listCalibrations } from '../../../domain/ifta/calibrations.js';
import { toIso } from '../../../storage/values.js';
import { CalibrationBody, type CalibrationInput } from '../../../domain/ifta/input.js';

const ReportQuery = Type.Object({
  year: Type.Integer({ minimum: 2000, maximum: 2100, description: 'Calendar year' }),
  quarter: Type.Integer({ minimum: 1, maximum: 4, description: '1 = Jan–Mar, 2 = Apr–Jun, 3 = Jul–Sep, 4 = Oct–Dec' }),
  fuel_type: Type.Optional(Type.String({ enum: [...FUEL_TYPES], description: 'Only this fuel type' })),
  format: Type.Optional(
    Type.String({ enum: ['json', 'csv'], description: 'csv: the same figures as text/csv (so does Accept: text/csv)' }),
  ),
});

const CalibrationQuery = Type.Object({ ...pageQuery, vehicle_ids: IdList('Only calibrations of these vehicles') });

const wantsCsv = (req: FastifyRequest, format: string | undefined) =>
  format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(String(req.headers.accept ?? '')));

export async function iftaReportRoutes(app: Api) {
  app.get(
    '/v1/ifta/quarterly_report',
    {
      config: { scope: 'ifta_reports.summary' },
      schema: {
        tags: ['ifta'],
        summary:
          'Quarterly IFTA report per fuel type: distance, taxable distance, fuel purchased, fleet MPG and taxable gallons per jurisdiction (JSON or CSV)',
        querystring: ReportQuery,
        response: { 200: QuarterlyReportSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { zone, label } = await reportZone(req, app.db, req.auth.companyId);
      const rep = await quarterlyReport(app.db, req.auth.companyId, {
        year: req.query.year,
        quarter: req.query.quarter,
        zone,
        fuelType: req.query.fuel_type,
      });
      if (!wantsCsv(req, req.query.format)) return quarterlyReportWire(rep, label);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="ifta-${rep.year}-q${rep.quarter}.csv"`)
        .serializer((p: unknown) => p as string)
        .send(quarterlyReportCsv(rep) as never);
    },
  );

  const tags = ['ifta'];
  app.get(
    '/v1/ifta/odometer_calibrations',
    {
      config: { scope: 'vehicles.read' },
      schema: {
        tags,
        summary: 'List odometer calibrations',
        querystring: CalibrationQuery,
        response: {
          200: listSchema('odometer_calibrations', 'odometer_calibration', OdometerCalibration),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await listCalibrations(
        app.db,
        req.auth.companyId,
        req.query.vehicle_ids,
        page.per_page,
        page.offset,
      );
      return listBody('odometer_calibrations', 'odometer_calibration', rows.map(odometerCalibration), page, total);
    },
  );

  app.post(
    '/v1/ifta/odometer_calibrations',
    {
      config: { scope: 'vehicles.manage' },
      schema: {
        tags,
        summary: 'Calibrate a vehicle odometer from an instant on',
        body: CalibrationBody,
        response: { 201: oneSchema('odometer_calibration', OdometerCalibration), ...errorResponses },
      },
    },
    async (req, reply) => {
      const { effective_from, ...rest } = req.body;
      const input: CalibrationInput =
        effective_from === undefined
          ? rest
          : { ...rest, effective_from: toIso(momentOf('effective_from', effective_from, requestTimeZone(req))) };
      const row = await createCalibration(app.db, req.auth.companyId, input);
      return reply.code(201).send(oneBody('odometer_calibration', odometerCalibration(row)));
    },
  );

  app.delete(
    '/v1/ifta/odometer_calibrations/:id',
    {
      config: { scope: 'vehicles.manage' },
      schema: {
        tags,
        summary: 'Delete an odometer calibration',
        params: IdParams,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      await deleteCalibration(app.db, req.auth.companyId, req.params.id);
      return { success: true };
    },
  );
}
