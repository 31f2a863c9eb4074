/**
 * The console's reports (views/reports*.ts, data/reports-data.ts), for any signed-in fleet user, each
 * limited to what the user may see:
 *   GET /console/reports             the page (?report=&start_date=&end_date=&vehicle=&group=)
 *   GET /console/reports/:name.csv   the same report as CSV, with the same filters
 * A query that names no report, a range longer than 31 days or a vehicle or group the user does not
 * have is a 400: on the page next to the form, for a CSV as the console's error page with that message.
 */
import type { FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { badRequest, notFound } from '../../core/errors.js';
import { isReport, type ReportQueryText } from './data/reports-data.js';
import { reportCsv, reportView, reportsPage } from './views/reports.js';
import { field } from '../plumbing/web-pages.js';
import { consolePageCaller, send } from './forms.js';

const hide = { schema: { hide: true } };

const queryOf = (req: FastifyRequest): ReportQueryText => ({
  report: field(req.query, 'report'),
  start_date: field(req.query, 'start_date'),
  end_date: field(req.query, 'end_date'),
  vehicle: field(req.query, 'vehicle'),
  group: field(req.query, 'group'),
});

export async function consoleReportRoutes(app: Api): Promise<void> {
  const signedIn = consolePageCaller(app);
  const opts = { excludePto: app.config.telemetry.idleExcludePto };

  app.get('/console/reports', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const view = await reportView(app.db, who.viewer, queryOf(req), opts);
    return send(reply, view.status, reportsPage({ user: who.user, csrf: who.csrf, view }));
  });

  app.get<{ Params: { file: string } }>('/console/reports/:file', hide, async (req, reply) => {
    const name = /^([a-z]+)\.csv$/.exec(req.params.file)?.[1];
    if (!name || !isReport(name)) throw notFound(`report ${req.params.file}`);
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const view = await reportView(app.db, who.viewer, { ...queryOf(req), report: name }, opts);
    if (!view.table) throw badRequest(view.error ?? 'no report');
    const { startDate, endDate } = view.filters;
    return reply
      .type('text/csv; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${name}-${startDate}-to-${endDate}.csv"`)
      .send(reportCsv(view.table, view.zone.iana));
  });
}
