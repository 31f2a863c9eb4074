/**
 * The fleet console for company admins and fleet managers, signed in with the fleet sign-in (/sign-in):
 *   GET  /console                          the live map (map.ts, with its base layer's data)
 *   GET  /console/dashboard                counts of vehicles, drivers, fault codes and today's distance and idling
 *   GET  /console/hos                      drivers' hours-of-service clocks, a day's log and violations
 *                                          (?date=YYYY-MM-DD&q=name&group=id&violations=1)
 *   GET  /console/ifta, /console/ifta.csv  distance and fuel by jurisdiction and vehicle for a quarter, and
 *                                          its CSV (?year=&quarter=&vehicle=id)
 *   /console/dispatches…                   the board; create, edit while planned, activate, cancel and
 *                                          complete after confirming (dispatches.ts)
 *   /console/devices…                      ELDs and phone trackers: provision, move, revoke (devices.ts)
 *   /console/vehicles…                     add, edit, out of service, deactivate (vehicles.ts)
 *   GET  /console/vehicles/:id/history     a vehicle's day: track, stops, events, replay (history.ts)
 *   /console/api-keys…                     create and revoke API keys, admins only (api-keys.ts)
 *   /console/users…, /set-password         drivers and users, their passwords and invites (users.ts)
 *   /console/groups…                       groups and their members (groups.ts)
 *   /console/geofences…                    list, draw, edit and delete geofences (geofences.ts)
 *   GET  /console/reports, /reports/:name.csv   reports over a range of days, as tables, charts and CSV
 *                                          (reports.ts)
 *   /console/alerts…                       the user's alert feed, mark read, alert settings (alerts.ts)
 *   GET  /console/assets/:file             its style sheet and scripts
 *   /console/api/*                         JSON and server-sent events for the pages (data-api.ts)
 * The installed apps (with revoke) stay at /fleet/apps, linked from the console for admins.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { AppError } from '../../core/errors.js';
import { dashboardPage } from './views/dashboard.js';
import { dashboardData } from './data/dashboard-data.js';
import { hosOverview, hosPage } from './views/hos.js';
import { iftaPage, iftaReport, iftaView } from './views/ifta.js';
import { quarterlyReportCsv } from '../../wire/ifta-report.js';
import { field, installPageErrors } from '../plumbing/web-pages.js';
import { consoleApiRoutes } from './data-api.js';
import { consolePageCaller, send } from './forms.js';
import { consoleVehicleRoutes } from './vehicles.js';
import { consoleApiKeyRoutes } from './api-keys.js';
import { consoleReportRoutes } from './reports.js';
import { consoleUserRoutes } from './users.js';
import { consoleGroupRoutes } from './groups.js';
import { consoleMapApiRoutes, consoleMapPageRoutes } from './map.js';
import { consoleGeofenceRoutes } from './geofences.js';
import { consoleDeviceRoutes } from './devices.js';
import { consoleDispatchRoutes } from './dispatches.js';
import { consoleAlertPages } from './alerts.js';
import { consoleHistoryApiRoutes, consoleHistoryPageRoutes } from './history.js';

const ASSETS: Record<string, string> = {
  'console.css': 'text/css; charset=utf-8',
  'map.js': 'text/javascript; charset=utf-8',
  'fleet.js': 'text/javascript; charset=utf-8',
  'fleet-list.js': 'text/javascript; charset=utf-8',
  'fleet.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
  'dashboard.css': 'text/css; charset=utf-8',
  'manage.css': 'text/css; charset=utf-8',
  'copy.js': 'text/javascript; charset=utf-8',
  'map.css': 'text/css; charset=utf-8',
  'map-base.js': 'text/javascript; charset=utf-8',
  'map-vehicles.js': 'text/javascript; charset=utf-8',
  'geofence-draw.js': 'text/javascript; charset=utf-8',
  'geofences.js': 'text/javascript; charset=utf-8',
  'hos.css': 'text/css; charset=utf-8',
  'ifta.css': 'text/css; charset=utf-8',
  'reports.js': 'text/javascript; charset=utf-8',
  'reports.css': 'text/css; charset=utf-8',
  'uplot.js': 'text/javascript; charset=utf-8',
  'uplot.css': 'text/css; charset=utf-8',
  'alerts.js': 'text/javascript; charset=utf-8',
  'alerts.css': 'text/css; charset=utf-8',
  'alerts-badge.js': 'text/javascript; charset=utf-8',
  'stream.js': 'text/javascript; charset=utf-8',
  'alerts-badge.css': 'text/css; charset=utf-8',
  'history.js': 'text/javascript; charset=utf-8',
  'history.css': 'text/css; charset=utf-8',
};
/** Assets read from an installed package (the chart library), by their path as require resolves it. */
const PACKAGE_ASSETS: Record<string, string> = {
  'uplot.js': 'uplot/dist/uPlot.esm.js',
  'uplot.css': 'uplot/dist/uPlot.min.css',
};
const assetDir = new URL('./assets/', import.meta.url);
const assetCache = new Map<string, Buffer>();

export async function consoleRoutes(app: Api): Promise<void> {
  await app.register(formbody);
  await app.register(cookie, { secret: app.config.cookieSecret, hook: 'onRequest' });
  // JSON endpoints keep the API's error answers; the pages answer errors with a page.
  await app.register(async (api) => consoleApiRoutes(api as unknown as Api));
  await app.register(async (api) => consoleMapApiRoutes(api as unknown as Api));
  await app.register(async (api) => consoleHistoryApiRoutes(api as unknown as Api));
  await app.register(async (pages) => consolePages(pages as unknown as Api));
}

async function consolePages(app: Api): Promise<void> {
  installPageErrors(app);
  const hide = { schema: { hide: true } };

  const signedIn = consolePageCaller(app);
  await consoleVehicleRoutes(app);
  await consoleApiKeyRoutes(app);
  await consoleReportRoutes(app);
  await consoleUserRoutes(app);
  await consoleGroupRoutes(app);
  await consoleMapPageRoutes(app);
  await consoleHistoryPageRoutes(app);
  await consoleGeofenceRoutes(app);
  await consoleDeviceRoutes(app);
  await consoleDispatchRoutes(app);
  await consoleAlertPages(app);

  app.get<{ Params: { file: string } }>('/console/assets/:file', hide, async (req, reply) => {
    const file = req.params.file;
    const type = ASSETS[file];
    if (!type) throw new AppError('not_found', `no asset ${file}`);
    let body = assetCache.get(file);
    if (!body) {
      const from = PACKAGE_ASSETS[file]
        ? createRequire(import.meta.url).resolve(PACKAGE_ASSETS[file])
        : new URL(file, assetDir);
      assetCache.set(file, (body = readFileSync(from)));
    }
    return reply.type(type).header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').send(body);
  });

  // The server's root is no API resource: a browser that opens the server's address lands in the console.
  app.get('/', hide, async (_req, reply) => reply.redirect('/console', 302));

  app.get('/console/dashboard', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const data = await dashboardData(app.db, who.viewer, {
      offlineAfterMin: app.config.consoleOfflineAfterMin,
      excludePto: app.config.telemetry.idleExcludePto,
    });
    return send(reply, 200, dashboardPage({ user: who.user, csrf: who.csrf, data }));
  });

  app.get('/console/hos', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const overview = await hosOverview(app.db, who.viewer, {
      date: field(req.query, 'date'),
      q: field(req.query, 'q'),
      group: field(req.query, 'group'),
      violations: field(req.query, 'violations'),
    });
    return send(reply, overview.error ? 400 : 200, hosPage({ user: who.user, csrf: who.csrf, overview }));
  });

  const iftaQuery = (req: FastifyRequest) => ({
    year: field(req.query, 'year'),
    quarter: field(req.query, 'quarter'),
    vehicle: field(req.query, 'vehicle'),
  });

  app.get('/console/ifta', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const view = await iftaView(app.db, who.viewer, iftaQuery(req));
    return send(reply, view.status, iftaPage({ user: who.user, csrf: who.csrf, view }));
  });

  app.get('/console/ifta.csv', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const r = await iftaReport(app.db, who.viewer, iftaQuery(req));
    if (!r.report) throw new AppError(r.status === 403 ? 'forbidden' : 'bad_request', r.error!);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="ifta-${r.quarter.year}-q${r.quarter.quarter}.csv"`)
      .send(quarterlyReportCsv(r.report));
  });
}
