/**
 * ELD devices and phone trackers in the console, for admins and fleet managers (a group-limited
 * manager: the devices of their groups' vehicles; data/devices-data.ts):
 *   GET  /console/devices                     the table (?revoked=1: with the revoked ones) and the form
 *   POST /console/devices                     provisions a device; the answer shows its credential once
 *                                             (and a phone's app settings)
 *   GET  /console/devices/:id                 one device: its phone settings, its vehicle, revoke
 *   POST /console/devices/:id/vehicle         moves it to another vehicle
 *   GET, POST /console/devices/:id/revoke     the confirmation step, then the revocation
 * Through the devices area's services, as `fleet device create|revoke` does, with the same messages.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { provisionDevice, revokeDevice } from '../../domain/devices/service.js';
import { PHONE_MODEL, assignDevice, phoneIdentifier } from '../../domain/devices/assign.js';
import { validation } from '../../core/errors.js';
import { field } from '../plumbing/web-pages.js';
import type { ConsoleCaller } from './caller.js';
import { consoleFormCaller, consolePageCaller, formRefusal, pathId, send } from './forms.js';
import { confirmPage } from './views/forms.js';
import { trackerServer } from './views/devices-phone.js';
import {
  DEVICE_TYPES,
  devicePage,
  devicesPage,
  typeOf,
  type DevicesView,
  type ProvisionValues,
} from './views/devices.js';
import { assertVehicleChoice, deviceList, vehicleChoices, visibleDevice, zoneOf } from './data/devices-data.js';

/** What the device page says after a change; only these words, never text from the URL. */
const DONE: Record<string, string> = {
  moved: 'The device now reports for this vehicle.',
  revoked: 'The device is revoked: its credential is refused from now on.',
};

/** A vehicle id as the form sends it; anything else is refused as the CLI's --vehicle is. */
function vehicleId(raw: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw)) throw validation('vehicle', 'is required: choose the vehicle the device is on');
  return Number(raw);
}

/** The port the OsmAnd listener is bound to (OSMAND_PORT=0 takes any free one), once it listens. */
const listenerPort = (url: string | undefined) => (url ? Number(new URL(url).port) || null : null);

export async function consoleDeviceRoutes(app: Api): Promise<void> {
  const hide = { schema: { hide: true } };
  const signedIn = consolePageCaller(app);
  const server = (req: FastifyRequest) =>
    trackerServer({
      publicUrl: app.config.publicUrl,
      requestHost: req.hostname,
      osmandPort: listenerPort(app.sideListeners.get('OsmAnd')) ?? app.config.telemetry.osmandPort,
      listenHost: app.config.host,
    });

  async function showList(
    req: FastifyRequest,
    reply: FastifyReply,
    who: ConsoleCaller,
    status: number,
    extra: Pick<DevicesView, 'values' | 'error' | 'created' | 'notice'> & { revoked?: boolean } = {},
  ) {
    const revoked = extra.revoked ?? false;
    const [list, vehicles] = await Promise.all([
      deviceList(app.db, who.viewer, revoked),
      vehicleChoices(app.db, who.viewer),
    ]);
    const page = devicesPage({
      user: who.user,
      csrf: who.csrf,
      ...list,
      revoked,
      vehicles,
      server: server(req),
      ...extra,
    });
    return send(reply, status, page);
  }

  async function showDevice(
    req: FastifyRequest,
    reply: FastifyReply,
    who: ConsoleCaller,
    id: number,
    status: number,
    extra: { chosen?: string; error?: string; notice?: string } = {},
  ) {
    const device = await visibleDevice(app.db, who.viewer, id);
    const [vehicles, zone] = await Promise.all([
      vehicleChoices(app.db, who.viewer),
      zoneOf(app.db, who.viewer.companyId),
    ]);
    const number = vehicles.find((x) => x.id === device.vehicle_id)?.number;
    const vehicle = device.vehicle_id === null ? null : (number ?? `vehicle ${device.vehicle_id}`);
    const page = devicePage({
      user: who.user,
      csrf: who.csrf,
      device,
      vehicle,
      zone,
      vehicles,
      server: server(req),
      ...extra,
    });
    return send(reply, status, page);
  }

  app.get('/console/devices', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    return showList(req, reply, who, 200, { revoked: field(req.query, 'revoked') === '1' });
  });

  app.post('/console/devices', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const values: ProvisionValues = {
      type: field(req.body, 'type') ?? '',
      identifier: field(req.body, 'identifier') ?? '',
      model: field(req.body, 'model') ?? '',
      vehicle: field(req.body, 'vehicle') ?? '',
    };
    try {
      if (!(values.type in DEVICE_TYPES)) throw validation('type', 'must be one of: eld, phone');
      const vehicle = vehicleId(values.vehicle);
      assertVehicleChoice(who.viewer, vehicle);
      const phone = values.type === 'phone';
      const typed = values.identifier.trim();
      const made = await provisionDevice(app.db, who.viewer, {
        identifier: typed === '' && phone ? phoneIdentifier() : typed,
        model: phone ? PHONE_MODEL : values.model.trim() || undefined,
        vehicleId: vehicle,
      });
      const device = await visibleDevice(app.db, who.viewer, made.id);
      const number = (await vehicleChoices(app.db, who.viewer)).find((x) => x.id === vehicle)?.number;
      return showList(req, reply, who, 201, {
        created: { device, vehicle: number ?? `vehicle ${vehicle}`, token: made.device_token },
      });
    } catch (err) {
      const refused = formRefusal(err);
      return showList(req, reply, who, refused.status, { values, error: refused.message });
    }
  });

  app.get<{ Params: { id: string } }>('/console/devices/:id', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    return showDevice(req, reply, who, pathId(req.params.id, 'device'), 200, {
      notice: DONE[field(req.query, 'done') ?? ''],
    });
  });

  app.post<{ Params: { id: string } }>('/console/devices/:id/vehicle', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const device = await visibleDevice(app.db, who.viewer, pathId(req.params.id, 'device'));
    const chosen = field(req.body, 'vehicle') ?? '';
    try {
      const vehicle = vehicleId(chosen);
      assertVehicleChoice(who.viewer, vehicle);
      await assignDevice(app.db, who.viewer, device.id, vehicle);
    } catch (err) {
      const refused = formRefusal(err);
      return showDevice(req, reply, who, device.id, refused.status, { chosen, error: refused.message });
    }
    return reply.redirect(`/console/devices/${device.id}?done=moved`, 303);
  });

  app.get<{ Params: { id: string } }>('/console/devices/:id/revoke', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    const device = await visibleDevice(app.db, who.viewer, pathId(req.params.id, 'device'));
    if (device.revoked_at) return reply.redirect(`/console/devices/${device.id}`, 303);
    const page = confirmPage({
      user: who.user,
      csrf: who.csrf,
      section: 'devices',
      title: `Revoke ${typeOf(device).replace(/^(?!ELD)\w/, (c) => c.toLowerCase())} ${device.identifier}?`,
      explanation:
        'Its credential is refused from then on (the device API answers 403, the phone listener 404), and its serial and vehicle are free for a replacement. What it sent stays. A revoked device cannot be restored: provision a new one.',
      action: `/console/devices/${device.id}/revoke`,
      button: `Revoke ${device.identifier}`,
      cancelHref: `/console/devices/${device.id}`,
      danger: true,
    });
    return send(reply, 200, page);
  });

  app.post<{ Params: { id: string } }>('/console/devices/:id/revoke', hide, async (req, reply) => {
    const who = await consoleFormCaller(app, req);
    const device = await visibleDevice(app.db, who.viewer, pathId(req.params.id, 'device'));
    // Revoking a revoked device is no error: it is revoked either way (as `fleet device revoke`).
    await revokeDevice(app.db, who.viewer, device.id);
    return reply.redirect(`/console/devices/${device.id}?done=revoked`, 303);
  });
}
