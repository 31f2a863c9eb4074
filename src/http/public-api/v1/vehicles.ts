/** /v1/vehicles (scopes vehicles.read, vehicles.manage). */
import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { sendCached } from '../../plumbing/cached.js';
import {
  errorResponses,
  listBody,
  listSchema,
  oneBody,
  oneSchema,
  pageOf,
  pageQuery,
} from '../../plumbing/envelope.js';
import { IdList, IdParams } from '../../../wire/types.js';
import { Vehicle } from '../../../wire/vehicle.js';
import * as vehicles from '../../../domain/vehicles/service.js';
import { FUEL_TYPES, VEHICLE_STATUSES } from '../../../domain/vehicles/fields.js';
import { VehicleBody } from '../../../domain/vehicles/input.js';
import { vehiclesWire } from '../../../wire/pages.js';
import { Id } from '../../../core/ids.js';

const opt = Type.Optional;
const Enum = (values: readonly string[]) => Type.String({ enum: [...values] });

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
