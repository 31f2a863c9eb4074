/**
 * Demo hours of service: the last three days of logs for the demo company's first drivers, recorded
 * through the service (so clocks, violations, duty statuses and events all follow). Days end before
 * today, so live data from simulated devices continues them. Deterministic given the drivers and
 * vehicles in id order; one driver in seven overdrives yesterday (a driving_11 violation).
 */
import type { Db } from '../storage/db.js';
import type { Tenant } from '../domain/tenant.js';
import { recordDutyStatusEvents, type HosEventInput } from '../domain/hos/service.js';
import { activeDriverIds } from '../domain/users/repository.js';
import { vehicleDrivers } from '../domain/vehicles/repository.js';

const H = 3_600_000;
const DRIVERS = 20;

export async function seedHosDemo(db: Db, t: Tenant, now = Date.now()): Promise<{ drivers: number; records: number }> {
  const drivers = (await activeDriverIds(db.kysely, t.companyId, DRIVERS)).map((id) => ({ id }));
  const vehicles = await vehicleDrivers(db.kysely, t.companyId);
  const today = Math.floor(now / (24 * H)) * 24 * H;
  let records = 0;
  for (const [i, d] of drivers.entries()) {
    const vehicleId =
      vehicles.find((v) => v.permanent_driver_id === d.id)?.id ??
      vehicles[i % Math.max(1, vehicles.length)]?.id ??
      null;
    let km = 120_000 + i * 7_919;
    const events: HosEventInput[] = [];
    const at = (ms: number) => new Date(ms).toISOString();
    for (const back of [3, 2, 1]) {
      const s = today - back * 24 * H + (5 + (i % 5)) * H;
      const long = back === 1 && i % 7 === 3;
      const drive = (from: number, hours: number) => {
        events.push({ at: at(from), status: 'driving', vehicleId, odometerKm: km });
        km += hours * 88;
      };
      events.push({ at: at(s), status: 'on_duty', vehicleId, odometerKm: km, notes: 'Pre-trip inspection' });
      drive(s + 0.5 * H, 4);
      events.push({ at: at(s + 4.5 * H), status: 'off_duty', vehicleId, odometerKm: km });
      drive(s + 5 * H, long ? 7.5 : 4);
      const end = s + (long ? 12.5 : 9) * H;
      events.push({ at: at(end), status: 'on_duty', vehicleId, odometerKm: km, notes: 'Post-trip inspection' });
      events.push({ at: at(end + 0.5 * H), status: 'off_duty', vehicleId, odometerKm: km });
      if (back > 1)
        events.push({ at: at(end + 1.5 * H), kind: 'certification', date: new Date(s).toISOString().slice(0, 10) });
      if (back === 2 && i % 4 === 0)
        events.push({ at: at(s + 6 * H), kind: 'remark', notes: 'Waited at the dock for a door', location: null });
    }
    const r = await recordDutyStatusEvents(db, t, d.id, events, { now });
    records += r.ids.length;
  }
  return { drivers: drivers.length, records };
}
