/**
 * The console's map: its page and the data of its offline base layer (data/map-data.ts).
 *   GET /console                                the live map with the vehicle list
 *   GET /console/assets/leaflet.js, leaflet.css Leaflet itself, from node_modules (same origin: the
 *                                               policy allows scripts from 'self' only)
 *   GET /console/api/map/outlines               states, provinces and Mexico as GeoJSON
 *   GET /console/api/map/places/:z/:x/:y        the place names shown at zoom z in that Web Mercator
 *                                               tile, as GeoJSON points (z from 3 to 12)
 * Base-layer data needs a console session like every /console/api answer; it never changes while the
 * process runs, so browsers keep it (a day, then they ask again with its ETag), and it goes gzipped
 * to a browser that accepts it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { AppError, notFound } from '../../core/errors.js';
import { consoleCaller } from './caller.js';
import { consolePageCaller } from './forms.js';
import { mapHeaders, mapPage } from './views/map-page.js';
import {
  isPlaceTile,
  outlinesGeoJson,
  placeIndex,
  placesGeoJson,
  staticBody,
  type StaticBody,
} from './data/map-data.js';

/** Files of the map library, by the name the pages ask for. */
const LIBRARY: Record<string, [string, string]> = {
  'leaflet.js': ['leaflet/dist/leaflet.js', 'text/javascript; charset=utf-8'],
  'leaflet.css': ['leaflet/dist/leaflet.css', 'text/css; charset=utf-8'],
};
const library = new Map<string, StaticBody>();
const DAY_S = 86_400;

/** A body built once: 304 for the browser's copy, gzipped when the browser takes it. */
function sendStatic(req: FastifyRequest, reply: FastifyReply, type: string, b: StaticBody, cache: string) {
  reply.header('Cache-Control', cache).header('ETag', b.etag).header('Vary', 'Accept-Encoding');
  reply.header('X-Content-Type-Options', 'nosniff');
  if (req.headers['if-none-match'] === b.etag) return reply.code(304).send();
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  if (gzip) reply.header('Content-Encoding', 'gzip');
  return reply.type(type).send(gzip ? b.gzip : b.body);
}

const hide = { schema: { hide: true } };

/** The page and the library's files (registered with the pages: errors answer as pages). */
export async function consoleMapPageRoutes(app: Api): Promise<void> {
  const signedIn = consolePageCaller(app);
  const requireRequire = createRequire(import.meta.url);

  app.get('/console', hide, async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    // The place names take a second or two to build on first use (on a worker thread): started now, ready when the map asks.
    placeIndex().catch((err: unknown) => req.log.error({ err }, 'place names for the map failed'));
    return reply
      .code(200)
      .headers(mapHeaders(app.config.map))
      .send(mapPage({ user: who.user, csrf: who.csrf, map: app.config.map }));
  });

  for (const [file, [path, type]] of Object.entries(LIBRARY)) {
    app.get(`/console/assets/${file}`, hide, async (req, reply) => {
      let body = library.get(file);
      if (!body) library.set(file, (body = staticBody(readFileSync(requireRequire.resolve(path)))));
      return sendStatic(req, reply, type, body, 'no-cache');
    });
  }
}

/** The base layer's data (registered with /console/api: errors answer as the API's). */
export async function consoleMapApiRoutes(app: Api): Promise<void> {
  const cached = `private, max-age=${DAY_S}`;
  async function caller(req: FastifyRequest) {
    const who = await consoleCaller(app, req);
    if (!who) throw new AppError('unauthenticated', 'Sign in to the console first.');
    return who;
  }

  app.get('/console/api/map/outlines', hide, async (req, reply) => {
    await caller(req);
    return sendStatic(req, reply, 'application/geo+json', outlinesGeoJson(), cached);
  });

  app.get<{ Params: { z: string; x: string; y: string } }>(
    '/console/api/map/places/:z/:x/:y',
    hide,
    async (req, reply) => {
      await caller(req);
      const [z, x, y] = [req.params.z, req.params.x, req.params.y].map((s) => (/^\d{1,7}$/.test(s) ? Number(s) : -1));
      if (!isPlaceTile(z, x, y)) throw notFound(`map tile ${req.params.z}/${req.params.x}/${req.params.y}`);
      const body = await placesGeoJson(z, x, y);
      return reply.type('application/geo+json').header('Cache-Control', cached).send(body);
    },
  );
}
