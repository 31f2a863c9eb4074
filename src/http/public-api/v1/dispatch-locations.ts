/**
 * /v1/dispatch_locations (scopes dispatch_locations.read, dispatch_locations.manage). PUT and DELETE
 * name the location by `vendor_id` (or `id`) in the body or the query string; `PUT /:id` also works.
 * When the location is named by id, a `vendor_id` in the body is its new value.
 */
import { Type, type Static } from 'typebox';
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
import { validation } from '../../../core/errors.js';
import { IdParams } from '../../../wire/types.js';
import { singleObjectBody } from './dispatch-body.js';
import { DispatchLocation, dispatchLocationWire } from '../../../wire/dispatch-location.js';
import { DispatchLocationBody, LocationRefQuery, type LocationInput } from '../../../domain/dispatch/location-input.js';
import * as locations from '../../../domain/dispatch/locations.js';

const List = listSchema('dispatch_locations', 'dispatch_location', DispatchLocation);
const One = oneSchema('dispatch_location', DispatchLocation);
const tags = ['dispatch_locations'];

type Ref = { id?: number; vendor_id?: string | null };

/** Which location a PUT or DELETE names, and whether the body's vendor_id is a new value. */
function refOf(query: Ref, body: Ref | null | undefined): { ref: locations.LocationRef; renames: boolean } {
  if (query.id !== undefined) return { ref: { id: query.id }, renames: true };
  if (query.vendor_id) return { ref: { vendor_id: query.vendor_id }, renames: true };
  if (body?.id !== undefined) return { ref: { id: body.id }, renames: true };
  if (body?.vendor_id) return { ref: { vendor_id: body.vendor_id }, renames: false };
  throw validation(
    'vendor_id',
    'is required to name the dispatch location (in the body or the query string; or give its id)',
  );
}

/** The body as the service takes it: its vendor_id only when that is a new value. */
function input(body: Static<typeof DispatchLocationBody>, renames: boolean): LocationInput {
  const { id: _id, vendor_id, ...rest } = body;
  return renames && vendor_id !== undefined ? { ...rest, vendor_id } : rest;
}

export async function dispatchLocationsRoutes(app: Api) {
  const read = { scope: 'dispatch_locations.read' } as const;
  const write = { scope: 'dispatch_locations.manage' } as const;
  const bodyHook = singleObjectBody('dispatch_location');

  app.get(
    '/v1/dispatch_locations',
    {
      config: read,
      schema: {
        tags,
        summary: 'List dispatch locations',
        querystring: Type.Object(pageQuery),
        response: { 200: List, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await locations.listLocations(app.db, req.auth, page.per_page, page.offset);
      return listBody('dispatch_locations', 'dispatch_location', rows.map(dispatchLocationWire), page, total);
    },
  );

  app.post(
    '/v1/dispatch_locations',
    {
      config: write,
      preValidation: bodyHook,
      schema: {
        tags,
        summary: 'Create a dispatch location (geocoded with lat/lon, or address only)',
        body: DispatchLocationBody,
        response: { 201: One, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { id: _id, ...fields } = req.body;
      const row = await locations.createLocation(app.db, req.auth, fields);
      return reply.code(201).send(oneBody('dispatch_location', dispatchLocationWire(row)));
    },
  );

  app.put(
    '/v1/dispatch_locations',
    {
      config: write,
      preValidation: bodyHook,
      schema: {
        tags,
        summary: 'Update a dispatch location named by vendor_id (or id) in the body or query string',
        querystring: LocationRefQuery,
        body: DispatchLocationBody,
        response: { 200: One, ...errorResponses },
      },
    },
    async (req) => {
      const { ref, renames } = refOf(req.query, req.body);
      const row = await locations.updateLocation(app.db, req.auth, ref, input(req.body, renames));
      return oneBody('dispatch_location', dispatchLocationWire(row));
    },
  );

  app.put(
    '/v1/dispatch_locations/:id',
    {
      config: write,
      preValidation: bodyHook,
      schema: {
        tags,
        summary: 'Update a dispatch location by id',
        params: IdParams,
        body: DispatchLocationBody,
        response: { 200: One, ...errorResponses },
      },
    },
    async (req) => {
      const row = await locations.updateLocation(app.db, req.auth, { id: req.params.id }, input(req.body, true));
      return oneBody('dispatch_location', dispatchLocationWire(row));
    },
  );

  app.delete(
    '/v1/dispatch_locations',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a dispatch location named by vendor_id (or id) in the query string or body',
        querystring: LocationRefQuery,
        body: Type.Union([LocationRefQuery, Type.Null()]),
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      const { ref } = refOf(req.query, req.body);
      await locations.deleteLocation(app.db, req.auth, ref);
      return { success: true };
    },
  );
}
