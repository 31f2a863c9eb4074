/**
 * Managing vehicles in the console, for admins and fleet managers (a group-limited manager: the
 * vehicles of their groups; data/vehicles-data.ts):
 *   GET  /console/vehicles                          the table (?status=, ?page=)
 *   GET  /console/vehicles/new, POST /console/vehicles          add a vehicle
 *   GET  /console/vehicles/:id/edit, POST /console/vehicles/:id  edit it
 *   POST /console/vehicles/:id/availability          out of service, back in service
 *   GET, POST /console/vehicles/:id/deactivate|reactivate   the confirmation step, then the change
 * A form becomes the body of `POST/PUT /v1/vehicles`, is checked against that route's own schema with
 * the API's messages, and goes through the same service with the signed-in user as the acting user:
 * the same refusals, the same `vehicle_upserted` webhook, and the change is what the API reads next.
 */
import type { FastifyReply } from 'fastify';
import type { Api } from '../api.js';
import { AppError } from '../../core/errors.js';
import { createVehicle, updateVehicle, type VehicleInput, type VehicleRow } from '../../domain/vehicles/service.js';
import { VEHICLE_STATUSES } from '../../domain/vehicles/fields.js';
import { VehicleBody } from '../../domain/vehicles/input.js';
import { apiBodyCheck } from './body-check.js';
import { field, fields } from '../plumbing/web-pages.js';
import type { ConsoleCaller } from './caller.js';
import { consoleFormCaller, consolePageCaller, formRefusal, pathId, send } from './forms.js';
import { vehiclesPage } from './views/vehicles.js';
import { confirmPage } from './views/forms.js';
import {
  DETAILS,
  OUT_OF_SERVICE,
  availabilityBody,
  valuesOfVehicle,
  vehicleBody,
  vehicleFormPage,
  type VehicleFormView,
  type VehicleValues,
} from './views/vehicle-form.js';
import {
  assignableGroups,
  groupIdsToStore,
  groupsOfVehicle,
  vehicleListPage,
  visibleVehicle,
} from './data/vehicles-data.js';

/** What the edit page says after a change; only these words, never text from the URL. */
const DONE: Record<string, (number: string) => string> = {
  created: (n) => `Vehicle ${n} was created.`,
  updated: (n) => `Changes to ${n} were saved.`,
  out_of_service: (n) => `${n} is out of service.`,
  in_service: (n) => `${n} is back in service.`,
  deactivated: (n) => `${n} is deactivated.`,
  reactivated: (n) => `${n} is active again.`,
};

const STATUS_CHANGES = {
  deactivate: {
    status: 'deactivated',
    done: 'deactivated',
    title: (n: string) => `Deactivate ${n}?`,
    explanation:
      'A deactivated vehicle leaves the map and the live list; its history, dispatches and reports stay, and the API shows it with status "deactivated". You can reactivate it later.',
    danger: true,
  },
  reactivate: {
    status: 'active',
    done: 'reactivated',
    title: (n: string) => `Reactivate ${n}?`,
    explanation: 'The vehicle becomes active again: back on the map and in the live list.',
    danger: false,
  },
} as const;

export async function consoleVehicleRoutes(app: Api): Promise<void> {
  const hide = { schema: { hide: true } };
  const signedIn = consolePageCaller(app);
  const apiBody = apiBodyCheck<VehicleInput>(VehicleBody, 'POST', '/v1/vehicles');
  /** The signed-in user acts: the availability's updated_by names them. */
  const actor = (who: ConsoleCaller) => ({ ...who.viewer, actingUserId: who.viewer.userId });
  const valuesOfForm = (body: unknown): VehicleValues => ({
    fields: Object.fromEntries(DETAILS.map((c) => [c.name, field(body, c.name) ?? ''])),
    groupIds: fields(body, 'group_ids'),
  });

  async function showForm(
    reply: FastifyReply,
    who: ConsoleCaller,
    status: number,
    v: Partial<Pick<VehicleFormView, 'vehicle' | 'values' | 'error' | 'outOfService' | 'notice'>>,
  ) {
    const values =
      v.values ?? (v.vehicle ? valuesOfVehicle(v.vehicle, await groupsOfVehicle(app.db, v.vehicle.id)) : undefined);
    const page = vehicleFormPage({
      user: who.user,
      csrf: who.csrf,
      groups: await assignableGroups(app.db, who.viewer),
      groupsRequired: who.viewer.vehicleIds !== null,
      ...v,
      values: values ?? { fields: {}, groupIds: [] },
    });
    return send(reply, status, page);
  }

  const edited = (reply: FastifyReply, id: number, done: string) =>
    reply.redirect(`/console/vehicles/${id}/edit?done=${done}`, 303);

  app.get('/console/vehicles', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const wanted = field(req.query, 'status');
    const status = (VEHICLE_STATUSES as readonly string[]).includes(wanted ?? '') ? wanted : undefined;
    const p = field(req.query, 'page') ?? '';
    const page = /^[1-9]\d{0,5}$/.test(p) ? Number(p) : 1;
    const { rows, total } = await vehicleListPage(app.db, who.viewer, status, page);
    return send(reply, 200, vehiclesPage({ user: who.user, csrf: who.csrf, rows, total, page, status }));
  });

  app.get('/console/vehicles/new', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    return showForm(reply, who, 200, {});
  });

  app.post('/console/vehicles', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const values = valuesOfForm(req.body);
    let row: VehicleRow;
    try {
      const body = apiBody(vehicleBody(values));
      body.group_ids = await groupIdsToStore(app.db, who.viewer, body.group_ids ?? []);
      row = await createVehicle(app.db, actor(who), body);
    } catch (err) {
      const refused = formRefusal(err);
      return showForm(reply, who, refused.status, { values, error: refused.message });
    }
    return edited(reply, row.id, 'created');
  });

  app.get<{ Params: { id: string } }>('/console/vehicles/:id/edit', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const vehicle = await visibleVehicle(app.db, who.viewer, pathId(req.params.id, 'vehicle'));
    const done = DONE[field(req.query, 'done') ?? ''];
    return showForm(reply, who, 200, { vehicle, notice: done?.(vehicle.number) });
  });

  app.post<{ Params: { id: string } }>('/console/vehicles/:id', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const vehicle = await visibleVehicle(app.db, who.viewer, pathId(req.params.id, 'vehicle'));
    const values = valuesOfForm(req.body);
    try {
      const body = apiBody(vehicleBody(values));
      body.group_ids = await groupIdsToStore(app.db, who.viewer, body.group_ids ?? [], vehicle.id);
      await updateVehicle(app.db, actor(who), vehicle.id, body);
    } catch (err) {
      const refused = formRefusal(err);
      return showForm(reply, who, refused.status, { vehicle, values, error: refused.message });
    }
    return edited(reply, vehicle.id, 'updated');
  });

  app.post<{ Params: { id: string } }>('/console/vehicles/:id/availability', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const vehicle = await visibleVehicle(app.db, who.viewer, pathId(req.params.id, 'vehicle'));
    const status = field(req.body, 'availability_status') ?? '';
    const typed = Object.fromEntries(OUT_OF_SERVICE.map((c) => [c.name, field(req.body, c.name) ?? '']));
    try {
      await updateVehicle(app.db, actor(who), vehicle.id, apiBody(availabilityBody(status, typed)));
    } catch (err) {
      const refused = formRefusal(err);
      return showForm(reply, who, refused.status, { vehicle, outOfService: { fields: typed, error: refused.message } });
    }
    return edited(reply, vehicle.id, status);
  });

  for (const [verb, change] of Object.entries(STATUS_CHANGES)) {
    const path = `/console/vehicles/:id/${verb}`;
    app.get<{ Params: { id: string } }>(path, hide, async (req, reply) => {
      const who = await signedIn(req, reply);
      if (!who) return reply;
      const vehicle = await visibleVehicle(app.db, who.viewer, pathId(req.params.id, 'vehicle'));
      if (vehicle.status === change.status) return edited(reply, vehicle.id, change.done);
      const page = confirmPage({
        user: who.user,
        csrf: who.csrf,
        section: 'vehicles',
        title: change.title(vehicle.number),
        explanation: change.explanation,
        action: `/console/vehicles/${vehicle.id}/${verb}`,
        button: `${verb[0].toUpperCase()}${verb.slice(1)} ${vehicle.number}`,
        cancelHref: `/console/vehicles/${vehicle.id}/edit`,
        danger: change.danger,
      });
      return send(reply, 200, page);
    });

    app.post<{ Params: { id: string } }>(path, hide, async (req, reply) => {
      const who = await consoleFormCaller(app, req);
      const vehicle = await visibleVehicle(app.db, who.viewer, pathId(req.params.id, 'vehicle'));
      await updateVehicle(app.db, actor(who), vehicle.id, apiBody({ status: change.status }));
      return edited(reply, vehicle.id, change.done);
    });
  }
}
