/**
 * A company seeded for the console dashboard, with figures known in advance:
 * - vehicles M-1 moving, I-1 idling, S-1 and S-2 stopped, O-1 offline, N-1..N-3 never reported;
 * - today, through the device API: M-1 drove 3 × 0.01° of latitude (3.33585 km = 2.07 mi) in 180 s
 *   and I-1 idled 120 s, so 40 % of the engine-on time was idle;
 * - open fault codes: SPN 100 FMI 1 (8 min ago) and SPN 110 FMI 0 (7 min ago) on S-1, P0420 on S-2
 *   (6 min ago), SPN 3364 FMI 18 on O-1 (19 min ago, but recorded last); P0300 on S-1 opened and cleared;
 * - drivers: Dana Near driving for 10 h 30 min (30 min of drive left), Olu Duty on duty for 2 h, Rex
 *   Rested off duty for an hour after 11 h of driving (no drive time left);
 * - group West: M-1, S-1, N-1, Dana Near, and the fleet manager Lim Ited, whose visibility is limited.
 * The company's time zone is one where it is at least an hour past midnight (UTC, else Hawaii), so
 * that the last 20 minutes are all today.
 */
import assert from 'node:assert/strict';
import { uniq } from '../fixtures.js';
import { PASSWORD, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { createCompany } from '../../../src/domain/companies/service.js';
import { createUser } from '../../../src/domain/users/service.js';
import { createApiKey } from '../../../src/auth/api-keys.js';
import { provisionDevice } from '../../../src/domain/devices/service.js';
import { recordDutyStatusEvents } from '../../../src/domain/hos/service.js';
import { telemetryFor } from '../../../src/telemetry/store/runner.js';
import { asCompany } from './kit.js';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

export interface DashboardFleet {
  companyId: number;
  apiKey: string;
  zone: string;
  admin: string;
  /** The fleet manager limited to group West. */
  limited: string;
  vehicles: Record<'M1' | 'I1' | 'S1' | 'S2' | 'O1' | 'N1' | 'N2' | 'N3', number>;
}

/** Records of one vehicle sent through the device API (a device of its own), then processed. */
export async function send(
  t: OAuthTestApp,
  companyId: number,
  vehicleId: number,
  records: Array<Record<string, unknown> & { at: number }>,
): Promise<void> {
  const dev = await provisionDevice(t.db, { companyId }, { identifier: `DB-${uniq()}`, vehicleId });
  const res = await t.app.inject({
    method: 'POST',
    url: '/device/v1/batches',
    headers: { authorization: `Bearer ${dev.device_token}` },
    payload: {
      records: records.map(({ at, ...r }, i) => ({ seq: i + 1, time: new Date(at).toISOString(), ...r })),
    },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().accepted, records.length, res.body);
  await telemetryFor(t.db, t.app.config.telemetry).settle();
}

export async function seedDashboardFleet(t: OAuthTestApp, opts: { metric?: boolean } = {}): Promise<DashboardFleet> {
  const now = Date.now();
  const hour = new Date(now).getUTCHours();
  const zone = hour >= 1 && hour < 23 ? 'UTC' : 'Hawaii';
  const c = await createCompany(t.db, { name: 'Dashboard Freight', time_zone: zone, metric_units: opts.metric });
  const person = async (role: string, first: string, last: string, extra: Record<string, unknown> = {}) => {
    const email = `${first.toLowerCase()}.${uniq()}@dash.test`;
    const u = await createUser(
      t.db,
      { companyId: c.id },
      { role, email, password: PASSWORD, first_name: first, last_name: last, ...extra },
    );
    return { id: u.id, email };
  };
  const admin = await person('admin', 'Ada', 'Admin');
  const limited = await person('fleet_user', 'Lim', 'Ited', { group_visibility: 'limited' });
  const dana = await person('driver', 'Dana', 'Near');
  const olu = await person('driver', 'Olu', 'Duty');
  const rex = await person('driver', 'Rex', 'Rested');
  const apiKey = (await createApiKey(t.db, c.id, 'test')).api_key;
  const api = asCompany(t, { companyId: c.id, apiKey, admin, manager: limited, driver: dana });

  const group = await api.call({ method: 'POST', url: '/v1/groups', payload: { name: 'West' } });
  assert.equal(group.status, 201, JSON.stringify(group.body));
  const west = group.body.group.id;
  const make = async (number: string, inWest = false) => {
    const payload = { number, ...(inWest ? { group_ids: [west] } : {}) };
    const res = await api.call({ method: 'POST', url: '/v1/vehicles', payload });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.vehicle.id as number;
  };
  const vehicles = {
    M1: await make('M-1', true),
    I1: await make('I-1'),
    S1: await make('S-1', true),
    S2: await make('S-2'),
    O1: await make('O-1'),
    N1: await make('N-1', true),
    N2: await make('N-2'),
    N3: await make('N-3'),
  };
  const members = await api.call({
    method: 'POST',
    url: `/v1/groups/${west}/users`,
    payload: { ids: [limited.id, dana.id] },
  });
  assert.equal(members.status, 200, JSON.stringify(members.body));

  const fix = (at: number, lat: number, kph: number, ignition?: boolean) => ({
    at,
    type: 'location',
    lat,
    lon: -89,
    speed_kph: kph,
    bearing_deg: 0,
    ...(ignition === undefined ? {} : { ignition }),
  });
  const j1939 = (at: number, spn: number, fmi: number) => ({ at, type: 'fault', protocol: 'j1939', spn, fmi });
  const obd2 = (at: number, code: string, status = 'active') => ({ at, type: 'fault', protocol: 'obd2', code, status });
  await send(
    t,
    c.id,
    vehicles.M1,
    [4, 3, 2, 1].map((m, i) => fix(now - m * MIN, 40 + i * 0.01, 90, true)),
  );
  await send(
    t,
    c.id,
    vehicles.I1,
    [200, 140, 80].map((s) => fix(now - s * S, 41, 0, true)),
  );
  // The engine is off on S-1 (nothing closes while it is off); S-2 sends nothing after its fault.
  await send(t, c.id, vehicles.S1, [
    fix(now - 500 * S, 42, 0, false),
    obd2(now - 490 * S, 'P0300'),
    j1939(now - 8 * MIN, 100, 1),
    j1939(now - 7 * MIN, 110, 0),
    obd2(now - 400 * S, 'P0300', 'cleared'),
  ]);
  await send(t, c.id, vehicles.S2, [fix(now - 400 * S, 43, 0), obd2(now - 6 * MIN, 'P0420')]);
  await send(t, c.id, vehicles.O1, [fix(now - 20 * MIN, 44, 80, true), j1939(now - 19 * MIN, 3364, 18)]);

  const tenant = { companyId: c.id };
  await recordDutyStatusEvents(t.db, tenant, dana.id, [{ at: now - 10.5 * H, status: 'driving' }]);
  await recordDutyStatusEvents(t.db, tenant, olu.id, [{ at: now - 2 * H, status: 'on_duty' }]);
  await recordDutyStatusEvents(t.db, tenant, rex.id, [
    { at: now - 12 * H, status: 'driving' },
    { at: now - 1 * H, status: 'off_duty' },
  ]);
  return { companyId: c.id, apiKey, zone, admin: admin.email, limited: limited.email, vehicles };
}

/** The text of one dashboard card, tags dropped and spaces collapsed: what a screen reader reads. */
export function cardText(body: string, key: string): string {
  const m = body.match(new RegExp(`<section class="dash-card" id="card-${key}"[^>]*>([\\s\\S]*?)</section>`));
  assert.ok(m, `no card ${key}`);
  return m[1]
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
