/**
 * /v1/geofences (scopes geofences.read, geofences.manage): polygon and circular geofences. Lists allow
 * per_page up to 500 (the specification's exception to 100) and filter by category and status.
 * POST /v1/geofences takes either shape; POST /v1/geofences/circular only a circle (docs/reference/wire.md §4.23).
 */
import { Type } from 'typebox';
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
import { IdParams } from '../../../wire/types.js';
import { Geofence, geofenceWire } from '../../../wire/geofence.js';
import { GeofenceBody } from '../../../domain/geofences/input.js';
import * as geofences from '../../../domain/geofences/service.js';

/** The largest page of a geofence list (docs/reference/api.md §8). */
export const GEOFENCE_MAX_PER_PAGE = 500;

const ListQuery = Type.Object({
  ...pageQuery,
  per_page: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: `Items per page; default 25, at most ${GEOFENCE_MAX_PER_PAGE} (larger values are clamped)`,
    }),
  ),
  category: Type.Optional(
    Type.String({ maxLength: 255, description: 'Only geofences of this category (letter case ignored)' }),
  ),
  status: Type.Optional(Type.String({ enum: [...geofences.GEOFENCE_STATUSES] })),
});

const GeofenceList = listSchema('geofences', 'geofence', Geofence);
const GeofenceOne = oneSchema('geofence', Geofence);
const tags = ['geofences'];

export async function geofencesRoutes(app: Api) {
  const read = { scope: 'geofences.read' } as const;
  const write = { scope: 'geofences.manage' } as const;

  app.get(
    '/v1/geofences',
    {
      config: read,
      schema: {
        tags,
        summary: 'List geofences',
        querystring: ListQuery,
        response: { 200: GeofenceList, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query, GEOFENCE_MAX_PER_PAGE);
      const { rows, total } = await geofences.listGeofences(app.db, req.auth, req.query, page.per_page, page.offset);
      return listBody('geofences', 'geofence', rows.map(geofenceWire), page, total);
    },
  );

  app.post(
    '/v1/geofences',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a geofence (polygon, or circle)',
        body: GeofenceBody,
        response: { 201: GeofenceOne, ...errorResponses },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(oneBody('geofence', geofenceWire(await geofences.createGeofence(app.db, req.auth, req.body)))),
  );

  app.post(
    '/v1/geofences/circular',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a circular geofence',
        body: GeofenceBody,
        response: { 201: GeofenceOne, ...errorResponses },
      },
    },
    async (req, reply) => {
      const row = await geofences.createGeofence(app.db, req.auth, req.body, { circularOnly: true });
      return reply.code(201).send(oneBody('geofence', geofenceWire(row)));
    },
  );

  app.get(
    '/v1/geofences/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a geofence', params: IdParams, response: { 200: GeofenceOne, ...errorResponses } },
    },
    async (req) => oneBody('geofence', geofenceWire(await geofences.getGeofence(app.db, req.auth, req.params.id))),
  );

  app.put(
    '/v1/geofences/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Update a geofence',
        params: IdParams,
        body: GeofenceBody,
        response: { 200: GeofenceOne, ...errorResponses },
      },
    },
    async (req) =>
      oneBody('geofence', geofenceWire(await geofences.updateGeofence(app.db, req.auth, req.params.id, req.body))),
  );

  app.delete(
    '/v1/geofences/:id',
    {
      config: write,
      schema: { tags, summary: 'Delete a geofence', params: IdParams, response: { 200: Success, ...errorResponses } },
    },
    async (req) => {
      await geofences.deleteGeofence(app.db, req.auth, req.params.id);
      return { success: true };
    },
  );
}
