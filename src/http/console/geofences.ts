/**
 * Geofences in the console (views/geofences.ts):
 *   GET  /console/geofences                          the company's geofences, in a table and on a map
 *   GET  /console/geofences/new, POST /console/geofences          draw one
 *   GET  /console/geofences/:id/edit, POST /console/geofences/:id  move its points or radius, rename it …
 *   GET, POST /console/geofences/:id/delete          the confirmation step, then the deletion
 * A form becomes the body of `POST /v1/geofences` or `PUT /v1/geofences/:id` (the drawing is in its
 * `location_points`, `center` and `radius_m` fields), is checked against the API's own schema with its
 * messages, and goes through the same service: the same refusals, the same `geofence_upserted` and
 * `geofence_deleted` webhooks, and the change is what the API reads next. Every post carries the
 * session's CSRF token.
 *
 * Geofences belong to the whole company (telemetry checks every vehicle against them), so they are
 * changed by admins and by fleet managers who see the whole fleet; a manager limited to some groups
 * sees them and the map, and is refused a change (403).
 */
import type { FastifyReply } from 'fastify';
import type { Api } from '../api.js';
import { validation } from '../../core/errors.js';
import {
  createGeofence,
  deleteGeofence,
  getGeofence,
  listGeofences,
  updateGeofence,
  type GeofenceInput,
} from '../../domain/geofences/service.js';
import { geofenceWire } from '../../wire/geofence.js';
import { GeofenceBody } from '../../domain/geofences/input.js';
import { field } from '../plumbing/web-pages.js';
import type { ConsoleCaller } from './caller.js';
import { consoleFormCaller, consolePageCaller, formRefusal, pathId } from './forms.js';
import { apiBodyCheck } from './body-check.js';
import { confirmPage, deniedPage } from './views/forms.js';
import { mapHeaders } from './views/map-page.js';
import {
  FIELDS,
  geofenceFormPage,
  geofencesPage,
  valuesOfGeofence,
  type GeofenceFormView,
  type GeofenceValues,
} from './views/geofences.js';

/** What the list says after a change; only these words, never text from the URL. */
const DONE: Record<string, string> = {
  created: 'The geofence was created.',
  updated: 'The geofence was saved.',
  deleted: 'The geofence was deleted.',
};
const PAGE = 500;

const orNull = (s: string) => (s.trim() === '' ? null : s);

/** A drawn value of the form (JSON), as the API body takes it; empty: not drawn. */
function drawn(values: GeofenceValues, name: 'location_points' | 'center' | 'holes'): unknown {
  const raw = values[name].trim();
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw validation(name, 'must be the JSON the map writes: draw the geofence on the map again');
  }
}

/** The API body of the form: every detail (an empty one clearing it) and the drawn shape. */
export function geofenceBody(values: GeofenceValues): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: values.name,
    category: orNull(values.category),
    description: orNull(values.description),
    address: orNull(values.address),
  };
  if (values.status) body.status = values.status;
  if (values.shape === 'circle') {
    // Nothing drawn: the service refuses it with the API's own message ("center is required").
    body.center = drawn(values, 'center');
    const r = values.radius_m.trim();
    if (r !== '') body.radius_m = /^-?\d+(\.\d+)?$/.test(r) ? Number(r) : r;
  } else {
    body.location_points = drawn(values, 'location_points');
    const holes = drawn(values, 'holes');
    if (holes !== undefined) body.holes = holes;
  }
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

export async function consoleGeofenceRoutes(app: Api): Promise<void> {
  const hide = { schema: { hide: true } };
  const signedIn = consolePageCaller(app);
  const apiBody = apiBodyCheck<GeofenceInput>(GeofenceBody, 'POST', '/v1/geofences');
  const headers = () => mapHeaders(app.config.map);
  const canManage = (who: ConsoleCaller) => who.viewer.vehicleIds === null;
  const valuesOfForm = (body: unknown) =>
    Object.fromEntries(FIELDS.map((f) => [f, field(body, f) ?? ''])) as GeofenceValues;
  const done = (reply: FastifyReply, what: string) => reply.redirect(`/console/geofences?done=${what}`, 303);

  /** The caller who may change geofences, or the 403 page for one who may not. */
  function manager(who: ConsoleCaller, reply: FastifyReply): boolean {
    if (canManage(who)) return true;
    void reply
      .code(403)
      .headers(headers())
      .send(
        deniedPage({
          user: who.user,
          csrf: who.csrf,
          section: 'geofences',
          title: 'Geofences',
          message: 'Only admins and fleet managers who see the whole fleet change geofences.',
        }),
      );
    return false;
  }

  function showForm(reply: FastifyReply, who: ConsoleCaller, status: number, v: Partial<GeofenceFormView>) {
    const page = geofenceFormPage({
      user: who.user,
      csrf: who.csrf,
      map: app.config.map,
      values: v.values ?? valuesOfGeofence(v.geofence),
      ...v,
    });
    return reply.code(status).headers(headers()).send(page);
  }

  app.get('/console/geofences', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const rows = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await listGeofences(app.db, who.viewer, {}, PAGE, offset);
      rows.push(...page.rows);
      if (page.rows.length < PAGE) break;
    }
    const page = geofencesPage({
      user: who.user,
      csrf: who.csrf,
      map: app.config.map,
      geofences: rows.map(geofenceWire).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
      canManage: canManage(who),
      notice: DONE[field(req.query, 'done') ?? ''],
    });
    return reply.code(200).headers(headers()).send(page);
  });

  app.get('/console/geofences/new', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who || !manager(who, reply)) return reply;
    return showForm(reply, who, 200, {});
  });

  app.post('/console/geofences', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    if (!manager(who, reply)) return reply;
    const values = valuesOfForm(req.body);
    try {
      await createGeofence(app.db, who.viewer, apiBody(geofenceBody(values)));
    } catch (err) {
      const refused = formRefusal(err);
      return showForm(reply, who, refused.status, { values, error: refused.message });
    }
    return done(reply, 'created');
  });

  app.get<{ Params: { id: string } }>('/console/geofences/:id/edit', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who || !manager(who, reply)) return reply;
    const geofence = geofenceWire(await getGeofence(app.db, who.viewer, pathId(req.params.id, 'geofence')));
    return showForm(reply, who, 200, { geofence });
  });

  app.post<{ Params: { id: string } }>('/console/geofences/:id', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    if (!manager(who, reply)) return reply;
    const id = pathId(req.params.id, 'geofence');
    const geofence = geofenceWire(await getGeofence(app.db, who.viewer, id));
    const values = valuesOfForm(req.body);
    try {
      await updateGeofence(app.db, who.viewer, id, apiBody(geofenceBody(values)));
    } catch (err) {
      const refused = formRefusal(err);
      return showForm(reply, who, refused.status, { geofence, values, error: refused.message });
    }
    return done(reply, 'updated');
  });

  app.get<{ Params: { id: string } }>('/console/geofences/:id/delete', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who || !manager(who, reply)) return reply;
    const g = await getGeofence(app.db, who.viewer, pathId(req.params.id, 'geofence'));
    const page = confirmPage({
      user: who.user,
      csrf: who.csrf,
      section: 'geofences',
      title: `Delete ${g.name}?`,
      explanation:
        'Vehicles are no longer checked against it: no more entries and exits are recorded for it, and the API stops listing it. The entries and exits already recorded stay.',
      action: `/console/geofences/${g.id}/delete`,
      button: `Delete ${g.name}`,
      cancelHref: `/console/geofences/${g.id}/edit`,
      danger: true,
    });
    return reply.code(200).headers(headers()).send(page);
  });

  app.post<{ Params: { id: string } }>('/console/geofences/:id/delete', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    if (!manager(who, reply)) return reply;
    await deleteGeofence(app.db, who.viewer, pathId(req.params.id, 'geofence'));
    return done(reply, 'deleted');
  });
}
