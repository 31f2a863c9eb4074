/**
 * The console's data for its scripts (fleet session cookie, JSON errors like the API's):
 *   GET /console/api/vehicles                every active visible vehicle with its state (views/fleet.ts)
 *   GET /console/api/vehicles/:id/track      one vehicle's track since midnight UTC
 *   GET /console/api/dispatches              visible dispatches with names
 *   GET /console/api/stream                  server-sent events: `vehicles` whenever a position changes, and
 *                                            when time alone changes a state (offline, "last seen")
 *                                            (`?feeds=alerts`: instead or as well, `alerts` with the user's
 *                                            unread count and newest alert, whenever they change: alerts.ts)
 * The stream polls the company's latest positions once a second, ends after STREAM_MAX_MS (the browser
 * reconnects by itself), stops on disconnect, and at most STREAM_LIMIT streams are open at a time.
 */
import type { FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { AppError, notFound } from '../../core/errors.js';
import { boardDispatches, todaysTrack } from './data/data.js';
import { positionsVersion } from '../../telemetry/queries/positions-version.js';
import { fleetChangesAt, fleetView } from './views/fleet.js';
import { consoleCaller } from './caller.js';
import { alertStreamPart, consoleAlertApi, streamFeeds } from './alerts.js';

export const STREAM_POLL_MS = 1000;
export const STREAM_MAX_MS = 5 * 60_000;
export const STREAM_HEARTBEAT_MS = 15_000;
export const STREAM_LIMIT = 100;

export async function consoleApiRoutes(app: Api): Promise<void> {
  const hide = { schema: { hide: true } };
  const noStore = { 'Cache-Control': 'no-store' };
  let open = 0;
  const streams = new Set<() => void>();
  // Before the server waits for its connections to end: open streams would hold it for STREAM_MAX_MS.
  app.addHook('preClose', async () => {
    for (const stop of [...streams]) stop();
  });

  async function caller(req: FastifyRequest) {
    const who = await consoleCaller(app, req);
    if (!who) throw new AppError('unauthenticated', 'Sign in to the console first.');
    return who;
  }

  app.get('/console/api/vehicles', hide, async (req, reply) => {
    const who = await caller(req);
    return reply.headers(noStore).send(await fleetView(app.db, who.viewer, app.config.consoleOfflineAfterMin));
  });

  app.get<{ Params: { id: string } }>('/console/api/vehicles/:id/track', hide, async (req, reply) => {
    const who = await caller(req);
    const raw = req.params.id;
    if (!/^\d{1,12}$/.test(raw)) throw notFound(`vehicle ${raw}`);
    return reply.headers(noStore).send({ track: await todaysTrack(app.db, who.viewer, Number(raw)) });
  });

  app.get('/console/api/dispatches', hide, async (req, reply) => {
    const who = await caller(req);
    return reply.headers(noStore).send({ dispatches: await boardDispatches(app.db, who.viewer) });
  });

  await consoleAlertApi(app, caller);

  app.get('/console/api/stream', { ...hide, config: { longLived: true } }, async (req, reply) => {
    const who = await caller(req);
    const feeds = streamFeeds(req.query);
    const alerts = feeds.alerts ? alertStreamPart(app.db, who.viewer.userId) : null;
    if (open >= STREAM_LIMIT)
      throw new AppError('rate_limited', 'Too many live views are open; try again shortly.', { 'Retry-After': '5' });
    open++;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    const started = Date.now();
    let version = '';
    let due = Infinity;
    let lastWrite = started;
    let timer: NodeJS.Timeout | null = null;
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      open--;
      streams.delete(stop);
      if (timer) clearTimeout(timer);
      if (!res.writableEnded) res.end();
    };
    streams.add(stop);
    req.raw.on('close', stop);
    res.on('close', stop);
    const tick = async () => {
      timer = null;
      if (stopped) return;
      try {
        const chunk = alerts ? await alerts() : null;
        if (stopped) return;
        if (chunk) {
          res.write(chunk);
          lastWrite = Date.now();
        }
        const now = feeds.vehicles ? await positionsVersion(app.db, who.viewer.companyId) : version;
        if (stopped) return;
        if (now !== version || Date.now() >= due) {
          version = now;
          const at = Date.now();
          const fleet = await fleetView(app.db, who.viewer, app.config.consoleOfflineAfterMin, at);
          due = fleetChangesAt(fleet, at);
          res.write(`event: vehicles\ndata: ${JSON.stringify(fleet)}\n\n`);
          lastWrite = Date.now();
        } else if (Date.now() - lastWrite >= STREAM_HEARTBEAT_MS) {
          res.write(': keep-alive\n\n');
          lastWrite = Date.now();
        }
      } catch (err) {
        req.log.error({ err }, 'console stream poll failed');
        return stop();
      }
      if (stopped) return;
      if (Date.now() - started >= STREAM_MAX_MS) return stop();
      timer = setTimeout(() => void tick(), STREAM_POLL_MS);
    };
    void tick();
  });
}
