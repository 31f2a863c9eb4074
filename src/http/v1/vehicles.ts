/** /v1/vehicles (scopes vehicles.read, vehicles.manage). */
import { Type } from 'typebox';
import type { Api } from '../api.js';
import { sendCached } from '../plumbing/cached.js';
import { errorResponses, listBody, listSchema, oneBody, oneSchema, pageOf, pageQuery } from '../plumbing/envelope.js';
import { Id, IdList, IdParams } from '../../wire/types.js';
import { Vehicle, vehiclesWire } from '../../wire/vehicle.js';
import * as vehicles from '../../domain/vehicles/service.js';
import {
  AVAILABILITY,
  FUEL_TYPES,
  VEHICLE_BOOL_FIELDS,
  VEHICLE_CAMERA_FIELDS,
  VEHICLE_MAX_LENGTH,
  VEHICLE_STATUSES,
  VEHICLE_TEXT_FIELDS,
} from '../../domain/vehicles/fields.js';

const opt = Type.Optional;
const Enum = (values: readonly string[]) => Type.String({ enum: [...values] });
const Text = (description?: string) =>
  opt(Type.Union([Type.String({ maxLength: VEHICLE_MAX_LENGTH.text, description }), Type.Null()]));

/** The nested availability of the real API (docs/vehicles.md). */
const AvailabilityBody = Type.Object({
  availability_status: opt(Enum(AVAILABILITY)),
  out_of_service_reason: Text('Kept while out of service'),
  additional_note: Text(),
  custom_driver_app_warning_prompt: Text('Kept while out of service'),
});

/** The body of POST and PUT; the console's vehicle forms are checked against it too (src/http/console-vehicles.ts). */
export const VehicleBody = Type.Object({
  number: opt(Type.String({ maxLength: VEHICLE_MAX_LENGTH.number })),
  status: opt(Enum(VEHICLE_STATUSES)),
  year: opt(
    Type.Union([
      Type.String({ maxLength: VEHICLE_MAX_LENGTH.year }),
      Type.Integer({ minimum: 0, maximum: 9999 }),
      Type.Null(),
    ]),
  ),
  fuel_type: opt(Type.Union([Enum(FUEL_TYPES), Type.Null()])),
  permanent_driver_id: opt(Type.Union([Id(), Type.Null()])),
  group_ids: opt(Type.Array(Id(), { maxItems: 1000 })),
  availability_status: opt(Enum(AVAILABILITY)),
  availability_details: opt(AvailabilityBody),
  external_ids_attributes: opt(
    Type.Array(
      Type.Object({ external_id: Type.String({ maxLength: 255 }), integration_name: Type.String({ maxLength: 255 }) }),
      { maxItems: 50, description: 'Replaces the external ids of the vehicle ([] clears them)' },
    ),
  ),
  carb_ctc_test_enabled: opt(Type.Union([Type.Boolean(), Type.Null()])),
  ...Object.fromEntries(
    VEHICLE_TEXT_FIELDS.map((f) => [
      f,
      opt(Type.Union([Type.String({ maxLength: VEHICLE_MAX_LENGTH.text }), Type.Null()])),
    ]),
  ),
  ...Object.fromEntries(VEHICLE_BOOL_FIELDS.map((f) => [f, opt(Type.Boolean())])),
  ...Object.fromEntries(VEHICLE_CAMERA_FIELDS.map((f) => [f, opt(Type.Integer({ minimum: -1, maximum: 1 }))])),
});

const ListQuery = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Vehicles whose current or permanent driver is one of these users'),
  fuel_type: opt(Enum(FUEL_TYPES)),
  status: opt(Enum(VEHICLE_STATUSES)),
});

export const VehicleList = listSchema('vehicles', 'vehicle', Vehicle);
const VehicleOne = oneSchema('vehicle', Vehicle);
const tags = ['vehicles'];

export async function vehiclesRoutes(app: Api) {
  const read = { scope: 'vehicles.read' } as const;
  const write = { scope: 'vehicles.manage' } as const;
  const one = async (companyId: number, row: vehicles.VehicleRow) =>
    oneBody('vehicle', (await vehiclesWire(app.db, companyId, [row]))[0]);

  app.get(
    '/v1/vehicles',
    {
      config: read,
      schema: {
        tags,
        summary: 'List vehicles',
        querystring: ListQuery,
        response: { 200: VehicleList, ...errorResponses },
      },
    },
    (req, reply) =>
      sendCached(req, reply, async () => {
        const page = pageOf(req.query);
        const { rows, total } = await vehicles.listVehicles(app.db, req.auth, req.query, page.per_page, page.offset);
        return listBody('vehicles', 'vehicle', await vehiclesWire(app.db, req.auth.companyId, rows), page, total);
      }),
  );

  app.get(
    '/v1/vehicles/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a vehicle', params: IdParams, response: { 200: VehicleOne, ...errorResponses } },
    },
    (req, reply) =>
      sendCached(req, reply, async () =>
        one(req.auth.companyId, await vehicles.getVehicle(app.db, req.auth, req.params.id)),
      ),
  );

  app.post(
    '/v1/vehicles',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a vehicle',
        body: VehicleBody,
        response: { 201: VehicleOne, ...errorResponses },
      },
    },
    async (req, reply) => {
      const row = await vehicles.createVehicle(app.db, req.auth, req.body);
      return reply.code(201).send(await one(req.auth.companyId, row));
    },
  );

  app.put(
    '/v1/vehicles/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Update a vehicle',
        params: IdParams,
        body: VehicleBody,
        response: { 200: VehicleOne, ...errorResponses },
      },
    },
    async (req) => one(req.auth.companyId, await vehicles.updateVehicle(app.db, req.auth, req.params.id, req.body)),
  );
}
