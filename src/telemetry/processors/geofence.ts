/**
 * Geofence entry and exit (docs/reference/domain-rules.md §4.2, §7 D-4), per geofence, with src/domain/geofences/geometry.ts
 * deciding containment (boundary inside; circles left only beyond radius + `geofenceExitBufferM`).
 * - A change of side is confirmed by `geofenceConfirmPings` consecutive pings on the new side; pings
 *   less accurate than `geofenceMaxAccuracyM` are ignored.
 * - The event time is the boundary crossing interpolated between the last ping on the old side and the
 *   first on the new one; when those are more than `gapS` apart nothing is interpolated into the gap:
 *   an entry is stamped at the first ping inside, an exit at the last ping inside.
 * - The first ping of a vehicle (or the first ping processed after a geofence appeared) sets the state
 *   silently; a visit whose entry was not seen ends without an event. A geofence exists for the
 *   records received after its creation (`since`): what live processing saw, so a replay agrees.
 */
import { contains, type LatLon } from '../../domain/geofences/geometry.js';
import { hasFix, type Env, type GeofenceDef, type Input, type Output, type Step } from './types.js';
import { candidates, NEAR_PAD_DEG } from './geofence-grid.js';

interface Ping {
  t: number;
  lat: number;
  lon: number;
}

interface Zone {
  inside: boolean;
  /** Last ping on the confirmed side. */
  lastSame: Ping;
  /** Pings on the other side so far, and the first of them. */
  streak: number;
  firstNew: Ping | null;
  /** Start of the open visit whose entry was seen, else null. */
  visitStart: number | null;
  visitDriverId: number | null;
}

export interface GeofenceState {
  /** Only geofences the vehicle is inside of, or about to change side for; absent = outside. */
  zones: Record<string, Zone>;
  last: Ping | null;
  /** Geofences that existed at the last ping (a geofence not among them is new: its first ping is silent). */
  known: number[];
}

export const initialGeofences = (): GeofenceState => ({ zones: {}, last: null, known: [] });

export const maxSince = (defs: GeofenceDef[]) => defs.reduce((m, g) => (g.since && g.since > m ? g.since : m), '');

/** A cheap pre-check on the bounding box (padded for the exit buffer), allocation-free. */
function near(g: GeofenceDef, p: LatLon, bufferM: number): boolean {
  const pad = NEAR_PAD_DEG + bufferM / 111_000;
  const b = g.bounds;
  return (
    p.lat >= b.min_lat - pad && p.lat <= b.max_lat + pad && p.lon >= b.min_lon - pad * 3 && p.lon <= b.max_lon + pad * 3
  );
}

/** The instant the straight segment a → b crosses the boundary (bisection on containment). */
function crossing(g: GeofenceDef, a: Ping, b: Ping, enteringFromA: boolean): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 20; i++) {
    const mid = (lo + hi) / 2;
    const p = { lat: a.lat + (b.lat - a.lat) * mid, lon: a.lon + (b.lon - a.lon) * mid };
    if (contains(g.shape, p) === enteringFromA) hi = mid;
    else lo = mid;
  }
  return Math.round(a.t + (b.t - a.t) * hi);
}

export function geofences(state: GeofenceState, r: Input, env: Env): Step<GeofenceState> {
  if (r.type !== 'location' || !hasFix(r)) return { state, outputs: [] };
  const th = env.th;
  const accuracy = r.data?.accuracy_m;
  if (typeof accuracy === 'number' && accuracy > th.geofenceMaxAccuracyM) return { state, outputs: [] };
  const p: Ping = { t: r.t, lat: r.lat, lon: r.lon };
  const prev = state.last;
  const outputs: Output[] = [];
  const zones: Record<string, Zone> = {};
  const gapMs = th.gapS * 1000;
  // The geofences that existed when the fix was received: usually all of them.
  const received = r.receivedAt;
  const all = received === undefined || received >= (env.geofencesSince ?? maxSince(env.geofences));
  const knownIds = all
    ? (env.geofenceIds ?? env.geofences.map((g) => g.id))
    : env.geofences.filter((g) => !g.since || g.since <= received).map((g) => g.id);
  let known: Set<number> | null = null; // built on first use: most pings change no side

  // With a grid, only the geofences near the fix and those with a zone (which may be left from afar);
  // the others would be skipped below anyway, and the order is the same.
  const defs = env.geofences;
  const order = env.geofenceGrid ? candidates(env.geofenceGrid, p.lat, p.lon, Object.keys(state.zones)) : null;
  const n = order ? order.length : defs.length;
  for (let k = 0; k < n; k++) {
    const g = defs[order ? order[k] : k];
    if (!all && g.since && g.since > received!) continue;
    const key = String(g.id);
    let z = state.zones[key];
    const buffer = z?.inside && g.shape.shape === 'circle' ? th.geofenceExitBufferM : 0;
    const inside = near(g, p, buffer) && contains(g.shape, p, buffer);
    if (!z) {
      // Outside and not about to change side: nothing to do, whether the geofence is new or not.
      if (!inside) continue;
      const fresh = prev === null || !(known ??= new Set(state.known ?? [])).has(g.id);
      if (fresh) {
        zones[key] = { inside: true, lastSame: p, streak: 0, firstNew: null, visitStart: null, visitDriverId: null };
        continue;
      }
      z = { inside: false, lastSame: prev!, streak: 0, firstNew: null, visitStart: null, visitDriverId: null };
    }
    if (inside === z.inside) {
      if (z.inside)
        zones[key] = {
          inside: true,
          lastSame: p,
          streak: 0,
          firstNew: null,
          visitStart: z.visitStart,
          visitDriverId: z.visitDriverId,
        };
      continue;
    }
    const firstNew = z.streak === 0 ? p : z.firstNew!;
    const streak = z.streak + 1;
    if (streak < th.geofenceConfirmPings) {
      zones[key] = {
        inside: z.inside,
        lastSame: z.lastSame,
        streak,
        firstNew,
        visitStart: z.visitStart,
        visitDriverId: z.visitDriverId,
      };
      continue;
    }
    // Confirmed change of side.
    const apart = firstNew.t - z.lastSame.t > gapMs;
    if (inside) {
      const start = apart ? firstNew.t : crossing(g, z.lastSame, firstNew, true);
      outputs.push({
        kind: 'geofence',
        event: 'entered',
        row: { geofenceId: g.id, start, end: null, startDriverId: r.ctx.driverId, endDriverId: null },
      });
      zones[key] = {
        inside: true,
        lastSame: p,
        streak: 0,
        firstNew: null,
        visitStart: start,
        visitDriverId: r.ctx.driverId,
      };
    } else if (z.visitStart !== null) {
      const end = apart ? z.lastSame.t : crossing(g, z.lastSame, firstNew, false);
      outputs.push({
        kind: 'geofence',
        event: 'exited',
        row: {
          geofenceId: g.id,
          start: z.visitStart,
          end: Math.max(end, z.visitStart),
          startDriverId: z.visitDriverId,
          endDriverId: r.ctx.driverId,
        },
      });
    }
  }
  return { state: { zones, last: p, known: knownIds }, outputs };
}
