/**
 * The content of daily logs (docs/reference/wire.md §4.8, §4.9), computed for a page of (driver, day) keys with a
 * handful of batched queries: duty-status totals clipped to the day (and to now for today; time before
 * the driver's first record is off duty), the day's duty events, vehicles and odometers, remarks (with
 * exception claims and ELD malfunctions, ./remarks.ts), certification, cycle restarts ending that day,
 * violations overlapping it, and form-and-manner errors.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { toIso } from '../../storage/values.js';
import type { Tenant } from '../tenant.js';
import { evaluateWindow, lookbackMs } from './evaluation.js';
import { loadWindows } from './store.js';
import type { LogKey } from './log-days.js';
import { REMARK_KINDS, remarkNotes } from './remarks.js';
import { reportDays } from '../inspections/repository.js';

type Trx = Kysely<Database>;

export const DURATION_KEYS = ['off_duty', 'on_duty', 'sleeper', 'driving', 'waiting'] as const;
export type Durations = Record<(typeof DURATION_KEYS)[number], number>;

export interface LogDetail {
  key: LogKey;
  durations: Durations;
  events: Array<{
    id: number;
    type: string;
    notes: string | null;
    location: string | null;
    start: string;
    end: string | null;
  }>;
  vehicleIds: number[];
  /** Odometer readings of the day per vehicle, km. */
  odometers: Map<number, { first: number; last: number }>;
  remarks: Array<{ id: number; time: string; notes: string | null; location: string | null }>;
  restarts: Array<{ id: number; start: string; end: string | null; type: string; name: string }>;
  violations: Array<{ id: number; type: string; name: string; start_at: string; end_at: string | null }>;
  signedAt: string | null;
  formAndManner: Array<{ type: string; name: string }>;
  hasDriving: boolean;
  missingDvir: boolean;
}

const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

export async function logDetails(db: Trx, t: Tenant, keys: LogKey[], now: number): Promise<LogDetail[]> {
  if (keys.length === 0) return [];
  const ids = [...new Set(keys.map((k) => k.driver.id))];
  const from = toIso(Math.min(...keys.map((k) => k.start)));
  const to = toIso(Math.max(...keys.map((k) => k.end)));
  const dates = [...new Set(keys.map((k) => k.date))];
  const base = () =>
    db
      .selectFrom('hos_events')
      .where('company_id', '=', t.companyId)
      .where('driver_id', 'in', ids)
      .where('record_status', '=', 1);
  const [duty, others, certs, violations, dvirs] = await Promise.all([
    base()
      .selectAll()
      .where('kind', '=', 'duty_status')
      .where('ended_at', '>', from)
      .where('occurred_at', '<', to)
      .orderBy('occurred_at')
      .orderBy('id')
      .execute(),
    base()
      .selectAll()
      .where('kind', '!=', 'duty_status')
      .where('occurred_at', '>=', from)
      .where('occurred_at', '<', to)
      .orderBy('occurred_at')
      .orderBy('id')
      .execute(),
    base()
      .select(['id', 'driver_id', 'code', 'occurred_at'])
      .where('kind', '=', 'certification')
      .where('code', 'in', dates)
      .execute(),
    db
      .selectFrom('hos_violations')
      .select(['id', 'driver_id', 'type', 'name', 'start_at', 'end_at'])
      .where('company_id', '=', t.companyId)
      .where('driver_id', 'in', ids)
      .where('withdrawn_at', 'is', null)
      .where('start_at', '<', to)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', from)]))
      .orderBy('start_at')
      .orderBy('id')
      .execute(),
    reportDays(db, t.companyId, ids, dates),
  ]);
  const restarts = await restartsOf(db, t, keys, now);
  const dvirSet = new Set(dvirs.map((r) => `${r.driver_id}|${r.date}`));
  const nowIsoS = toIso(now);

  return keys.map((key) => {
    const dayStart = toIso(key.start);
    const dayEnd = toIso(Math.min(key.end, now));
    const mine = duty.filter(
      (r) => r.driver_id === key.driver.id && (r.ended_at ?? '') > dayStart && r.occurred_at < dayEnd,
    );
    const durations: Durations = { off_duty: 0, on_duty: 0, sleeper: 0, driving: 0, waiting: 0 };
    // Every boundary is taken to its whole second (the wire shows seconds), so a status split across
    // two log days adds up to its whole length: no second lost to rounding each day's part.
    const span = Math.max(0, Math.min(key.end, wholeSecond(now)) - key.start);
    let counted = 0;
    for (const r of mine) {
      const a = Math.max(wholeSecond(Date.parse(r.occurred_at)), key.start);
      const b = Math.min(wholeSecond(r.ended_at && r.ended_at < nowIsoS ? Date.parse(r.ended_at) : now), key.end);
      if (b <= a) continue;
      const k = (r.status ?? 'off_duty') as keyof Durations;
      durations[k] += b - a;
      counted += b - a;
    }
    durations.off_duty += span - counted;
    const day = others.filter(
      (r) => r.driver_id === key.driver.id && r.occurred_at >= dayStart && r.occurred_at < toIso(key.end),
    );
    const all = [...mine.filter((r) => r.occurred_at >= dayStart), ...day];
    const odometers = new Map<number, { first: number; last: number }>();
    for (const r of [...all].sort((x, y) => (x.occurred_at < y.occurred_at ? -1 : 1))) {
      if (r.vehicle_id === null || r.odometer_km === null) continue;
      const o = odometers.get(r.vehicle_id);
      if (o) o.last = r.odometer_km;
      else odometers.set(r.vehicle_id, { first: r.odometer_km, last: r.odometer_km });
    }
    const mineCerts = certs.filter((c) => c.driver_id === key.driver.id && c.code === key.date);
    const signed =
      mineCerts
        .map((c) => c.occurred_at)
        .sort()
        .pop() ?? null;
    // The certification stored last: a record of the day stored after it (a greater id: ids follow the
    // order of storage, and one driver's records are stored one writer at a time) changed the log the
    // driver certified, however old its instant (docs/hos.md, Remarks, certifications and malfunctions).
    const lastCert = mineCerts.reduce((m, c) => Math.max(m, c.id), 0);
    const hasDriving = durations.driving > 0;
    const active = durations.driving + durations.on_duty > 0;
    const formAndManner: LogDetail['formAndManner'] = [];
    const changed = lastCert > 0 && [...mine, ...day].some((r) => r.kind !== 'certification' && r.id > lastCert);
    if (active && key.end <= now && (signed === null || changed))
      formAndManner.push({
        type: 'log_not_certified',
        name: signed ? 'Log changed after certification' : 'Log not certified',
      });
    if (mine.some((r) => r.status === 'driving' && r.vehicle_id === null))
      formAndManner.push({ type: 'no_vehicle', name: 'Driving without a vehicle' });
    return {
      key,
      durations,
      events: mine.map((r) => ({
        id: r.id,
        type: r.status ?? 'off_duty',
        notes: r.notes,
        location: r.location,
        start: r.occurred_at,
        end: r.ended_at && r.ended_at < nowIsoS ? r.ended_at : null,
      })),
      vehicleIds: [...new Set(all.map((r) => r.vehicle_id).filter((v): v is number => v !== null))],
      odometers,
      remarks: day
        .filter((r) => REMARK_KINDS.has(r.kind))
        .map((r) => ({
          id: r.id,
          time: r.occurred_at,
          notes: remarkNotes(r.kind, r.code, r.notes),
          location: r.location,
        })),
      restarts: restarts.filter(
        (x) =>
          x.driverId === key.driver.id &&
          x.date === key.date &&
          (x.end ?? nowIsoS) >= dayStart &&
          (x.end ?? nowIsoS) < toIso(key.end),
      ),
      violations: violations.filter(
        (v) =>
          v.driver_id === key.driver.id && v.start_at < toIso(key.end) && (v.end_at === null || v.end_at > dayStart),
      ),
      signedAt: signed,
      formAndManner,
      hasDriving,
      missingDvir: hasDriving && !dvirSet.has(`${key.driver.id}|${key.date}`),
    };
  });
}

/**
 * Cycle restarts of each driver that end (or are going on) inside the keys' days, with the id of their first
 * record. Each day is evaluated at its own end from the driver's own history (evaluateWindow), so a log
 * shows the same restarts whatever other days share its page.
 */
async function restartsOf(db: Trx, t: Tenant, keys: LogKey[], now: number) {
  const out: Array<{
    driverId: number;
    date: string;
    id: number;
    start: string;
    end: string | null;
    type: string;
    name: string;
  }> = [];
  const byDriver = new Map<number, LogKey[]>();
  for (const k of keys) byDriver.set(k.driver.id, [...(byDriver.get(k.driver.id) ?? []), k]);
  for (const [driverId, ks] of byDriver) {
    const d = ks[0]!.driver;
    if (!d.ruleset.restart) continue;
    const atOf = (k: LogKey) => Math.min(now, k.end);
    const w = (
      await loadWindows(
        db,
        t.companyId,
        [driverId],
        Math.min(...ks.map(atOf)) - lookbackMs(d),
        Math.max(...ks.map(atOf)),
      )
    ).get(driverId)!;
    for (const k of ks) {
      for (const r of evaluateWindow(d, w, atOf(k)).restarts) {
        const first = await db
          .selectFrom('hos_events')
          .select('id')
          .where('company_id', '=', t.companyId)
          .where('driver_id', '=', driverId)
          .where('kind', '=', 'duty_status')
          .where('record_status', '=', 1)
          .where('occurred_at', '=', toIso(r.start))
          .orderBy('id')
          .executeTakeFirst();
        if (first)
          out.push({
            driverId,
            date: k.date,
            id: first.id,
            start: toIso(r.start),
            end: r.end === null ? null : toIso(r.end),
            type: r.type,
            name: r.name,
          });
      }
    }
  }
  return out;
}
