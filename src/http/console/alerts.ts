/**
 * The console's alerts (src/domain/alerts, docs/alerts.md), for admins and fleet managers:
 *   GET  /console/alerts                 the signed-in user's feed (?show=unread, ?page=)
 *   POST /console/alerts/read            mark entries read (`ids`, or `all=1`)
 *   GET  /console/alerts/preferences     what they get, per kind, in the console and by email
 *   POST /console/alerts/preferences     save it
 *   GET  /console/api/alerts?after=ID    the entries newer than ID, with their markup (the live feed)
 * and the part of the console's event stream (/console/api/stream?feeds=alerts, data-api.ts) that
 * sends `alerts` with {unread, latest} whenever either changes.
 */
import type { FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import type { Db } from '../../storage/db.js';
import { AppError } from '../../core/errors.js';
import { ALERT_KINDS } from '../../domain/alerts/kinds.js';
import { feedPage, feedState, markRead } from '../../domain/alerts/service.js';
import { preferencesOf, savePreferences, type Preferences } from '../../domain/alerts/preferences.js';
import { feedEntry, feedPage as feedView, preferencesPage } from './views/alerts.js';
import { field, fields } from '../plumbing/web-pages.js';
import type { ConsoleCaller } from './caller.js';
import { consoleFormCaller, consolePageCaller, send } from './forms.js';

const hide = { schema: { hide: true } };
const feedUser = (who: ConsoleCaller) => ({ companyId: who.viewer.companyId, userId: who.viewer.userId });

/** What the stream carries (`feeds=vehicles,alerts`; without it, vehicles only, as the map asks). */
export function streamFeeds(query: unknown): { vehicles: boolean; alerts: boolean } {
  const raw = field(query, 'feeds');
  if (raw === undefined) return { vehicles: true, alerts: false };
  const asked = raw.split(',').map((s) => s.trim());
  return { vehicles: asked.includes('vehicles'), alerts: asked.includes('alerts') };
}

/** The stream's alerts part: the next `alerts` event when the user's unread count or newest entry changed. */
export function alertStreamPart(db: Db, userId: number): () => Promise<string | null> {
  let last = '';
  return async () => {
    const state = await feedState(db, userId);
    const key = `${state.unread}|${state.latest}`;
    if (key === last) return null;
    last = key;
    return `event: alerts\ndata: ${JSON.stringify(state)}\n\n`;
  };
}

const NOTICES: Record<string, string> = {
  read: 'Marked as read.',
  saved: 'Your alert settings were saved.',
};

export async function consoleAlertPages(app: Api): Promise<void> {
  const signedIn = consolePageCaller(app);
  const page = (req: FastifyRequest) => {
    const p = field(req.query, 'page') ?? '';
    return /^[1-9]\d{0,5}$/.test(p) ? Number(p) : 1;
  };

  app.get('/console/alerts', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const unreadOnly = field(req.query, 'show') === 'unread';
    const current = page(req);
    const feed = await feedPage(app.db, feedUser(who), { page: current, unreadOnly });
    const view = feedView({
      user: who.user,
      csrf: who.csrf,
      ...feed,
      page: current,
      unreadOnly,
      notice: NOTICES[field(req.query, 'done') ?? ''],
    });
    return send(reply, 200, view);
  });

  app.post('/console/alerts/read', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const all = field(req.body, 'all') === '1';
    const ids = fields(req.body, 'ids')
      .filter((x) => /^\d{1,10}$/.test(x))
      .map(Number);
    if (!all && ids.length === 0) throw new AppError('bad_request', 'Name the alerts to mark read (ids), or all=1.');
    await markRead(app.db, feedUser(who), all ? 'all' : ids);
    return reply.redirect('/console/alerts?done=read', 303);
  });

  app.get('/console/alerts/preferences', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const prefs = (await preferencesOf(app.db.kysely, [who.viewer.userId])).get(who.viewer.userId)!;
    const view = preferencesPage({
      user: who.user,
      csrf: who.csrf,
      prefs,
      emailOn: app.config.alerts.smtp !== null,
      email: who.user.email,
      notice: NOTICES[field(req.query, 'done') ?? ''],
    });
    return send(reply, 200, view);
  });

  app.post('/console/alerts/preferences', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    // A checkbox left unticked is not sent: every kind not named is off.
    const on = (name: string) => new Set(fields(req.body, name));
    const inConsole = on('console');
    const byEmail = on('email');
    const prefs = Object.fromEntries(
      ALERT_KINDS.map((k) => [k, { console: inConsole.has(k), email: byEmail.has(k) }]),
    ) as Preferences;
    await savePreferences(app.db.kysely, feedUser(who), prefs);
    return reply.redirect('/console/alerts/preferences?done=saved', 303);
  });
}

/** The JSON side (registered with the console's API routes, which answer errors as the API does). */
export async function consoleAlertApi(app: Api, caller: (req: FastifyRequest) => Promise<ConsoleCaller>) {
  app.get('/console/api/alerts', hide, async (req, reply) => {
    const who = await caller(req);
    const raw = field(req.query, 'after') ?? '0';
    const after = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
    const feed = await feedPage(app.db, feedUser(who), { afterId: after });
    const items = feed.items.map((a) => ({ ...a, html: feedEntry(a, who.csrf).value }));
    return reply.header('Cache-Control', 'no-store').send({ unread: feed.unread, items });
  });
}
