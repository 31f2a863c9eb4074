/**
 * A vehicle's day in the console (views/history.ts, data/history-data.ts):
 *   GET /console/vehicles/:id/history?date=YYYY-MM-DD       the page (a day of the company's zone; today
 *                                                           without a date)
 *   GET /console/api/vehicles/:id/history?date=YYYY-MM-DD   its data: track, stops, idling, speeding,
 *                                                           geofence visits
 * A date that is not a day is a 400 with the API's message; a vehicle the user does not see (another
 * company's, or outside a group-limited manager's groups) is a 404.
 */
import type { FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { AppError } from '../../core/errors.js';
import { field } from '../plumbing/web-pages.js';
import { consoleCaller } from './caller.js';
import { consolePageCaller, pathId } from './forms.js';
import { mapHeaders } from './views/map-page.js';
import { historyPage } from './views/history.js';
import { dayHistory, historyTarget } from './data/history-data.js';

const hide = { schema: { hide: true } };
type Req = FastifyRequest<{ Params: { id: string } }>;

/** The page (registered with the pages: errors answer as pages). */
export async function consoleHistoryPageRoutes(app: Api): Promise<void> {
  const signedIn = consolePageCaller(app);
  app.get<{ Params: { id: string } }>('/console/vehicles/:id/history', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const target = await historyTarget(app.db, who.viewer, pathId(req.params.id, 'vehicle'), field(req.query, 'date'));
    const page = historyPage({ user: who.user, csrf: who.csrf, map: app.config.map, ...target });
    return reply.code(200).headers(mapHeaders(app.config.map)).send(page);
  });
}

/** The data (registered with /console/api: errors answer as the API's). */
export async function consoleHistoryApiRoutes(app: Api): Promise<void> {
  app.get<{ Params: { id: string } }>('/console/api/vehicles/:id/history', hide, async (req: Req, reply) => {
    const who = await consoleCaller(app, req);
    if (!who) throw new AppError('unauthenticated', 'Sign in to the console first.');
    const day = await dayHistory(app.db, who.viewer, pathId(req.params.id, 'vehicle'), field(req.query, 'date'), {
      excludePto: app.config.telemetry.idleExcludePto,
    });
    return reply.header('Cache-Control', 'no-store').send(day);
  });
}
