/**
 * Shared pieces of the dispatch tests: wire key sets, helpers that create locations and dispatches
 * through the API, and a test-only credential carrying chosen scopes (OAuth tokens come with their own
 * issue; API keys carry every scope).
 */
import assert from 'node:assert/strict';
import type { TestApp, TestCompany } from '../../helper.js';
import { createUser, createVehicle, uniq } from '../../http/fixtures.js';
import { authenticators } from '../../../src/auth/authenticators.js';
import type { Authenticator } from '../../../src/auth/authenticator.js';

export const LOCATION_KEYS = [
  'id',
  'vendor_id',
  'name',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'country',
  'lat',
  'lon',
  'arrive_radius',
  'depart_radius',
  'phone',
];
export const LOAD_DETAILS = ['bill_of_lading', 'refno', 'pallets', 'pieces', 'weight', 'volume', 'comments'];
const DATES: Record<string, string> = { shipper: 'pickup', consignee: 'delivery' };
const END = (role: string) => [
  `vendor_${role}_id`,
  `${role}_dispatch_location_id`,
  `vendor_${role}_dispatch_location_id`,
  `${role}_type`,
  `${role}_status`,
  `${role}_form_ids`,
  ...LOAD_DETAILS.map((k) => `${role}_${k}`),
  `${role}_driver_load`,
  `${DATES[role]}_early_date`,
  `${DATES[role]}_late_date`,
];
export const DISPATCH_KEYS = [
  'id',
  'vendor_id',
  'status',
  'driver_id',
  'vehicle_id',
  'auto_complete_forms',
  ...END('shipper'),
  ...END('consignee'),
  'additional_pickups',
  'additional_drops',
  'pickup_number',
  'loaded_miles',
  'driver',
  'vehicle',
  'dispatch_stops',
  'created_at',
  'updated_at',
];
export const DISPATCH_V2_KEYS = [...DISPATCH_KEYS, 'dispatch_trips'];
export const STOP_KEYS = [
  'id',
  'vendor_id',
  'number',
  'type',
  'status',
  'dispatch_location_id',
  'vendor_dispatch_location_id',
  'form_ids',
  'early_date',
  'late_date',
  'driver_load',
  ...LOAD_DETAILS,
];
export const TRIP_KEYS = ['id', 'vendor_id', 'driver_id', 'vehicle_id', 'status', 'vendor_stop_ids'];

/** `Authorization: Bearer scoped:<company>:<scope,scope>` → a credential with exactly those scopes. */
const scopedAuth: Authenticator = {
  name: 'test-scoped',
  credential(req) {
    const h = req.headers.authorization;
    return h?.startsWith('Bearer scoped:') ? h.slice('Bearer scoped:'.length) : null;
  },
  async authenticate(_db, cred) {
    const [company, scopes] = cred.split(':');
    return {
      companyId: Number(company),
      credential: { type: 'oauth_token', id: 0 },
      scopes: new Set(scopes.split(',')),
    };
  },
};
if (!authenticators.includes(scopedAuth)) authenticators.unshift(scopedAuth);

export function scoped(company: TestCompany, ...scopes: string[]): TestCompany {
  return { ...company, headers: { authorization: `Bearer scoped:${company.id}:${scopes.join(',')}` } };
}

export async function createLocation(t: TestApp, fields: Record<string, unknown> = {}, as?: TestCompany): Promise<any> {
  const payload = {
    vendor_id: `L-${uniq()}`,
    name: 'Dock',
    address1: '1 Main St',
    city: 'Columbus',
    state: 'OH',
    country: 'US',
    ...fields,
  };
  const res = await t.call({ method: 'POST', url: '/v1/dispatch_locations', payload, as });
  assert.equal(res.status, 201, `create location: ${JSON.stringify(res.body)}`);
  return res.body.dispatch_location;
}

export interface World {
  driver: any;
  driver2: any;
  vehicle: any;
  vehicle2: any;
  locations: any[];
}

/** Two drivers, two vehicles and four dispatch locations of the test company. */
export async function world(t: TestApp): Promise<World> {
  const [driver, driver2, vehicle, vehicle2] = [
    await createUser(t),
    await createUser(t),
    await createVehicle(t),
    await createVehicle(t),
  ];
  const locations = [];
  for (let i = 0; i < 4; i++) locations.push(await createLocation(t, { name: `Dock ${i}` }));
  return { driver, driver2, vehicle, vehicle2, locations };
}

/** A v1 POST body: shipper at location 0, `middle` dispatch stops at location 2, consignee at location 1. */
export function dispatchBody(w: World, fields: Record<string, unknown> = {}, middle = 1): Record<string, any> {
  const v = `D-${uniq()}`;
  return {
    vendor_id: v,
    driver_id: w.driver.id,
    vehicle_id: w.vehicle.id,
    vendor_shipper_id: `${v}-S`,
    vendor_shipper_dispatch_location_id: w.locations[0].vendor_id,
    vendor_consignee_id: `${v}-C`,
    consignee_dispatch_location_id: w.locations[1].id,
    dispatch_stops: Array.from({ length: middle }, (_, i) => ({
      vendor_id: `${v}-M${i + 1}`,
      dispatch_location_id: w.locations[2].id,
    })),
    ...fields,
  };
}

export async function createDispatch(
  t: TestApp,
  w: World,
  fields: Record<string, unknown> = {},
  middle = 1,
  version = 1,
): Promise<any> {
  const res = await t.call({
    method: 'POST',
    url: `/v${version}/dispatches`,
    payload: dispatchBody(w, fields, middle),
  });
  assert.equal(res.status, 201, `create dispatch: ${JSON.stringify(res.body)}`);
  return res.body.dispatch;
}

export async function put(t: TestApp, payload: unknown, version = 1, as?: TestCompany) {
  return t.call({ method: 'PUT', url: `/v${version}/dispatches`, payload: payload as any, as });
}

/** The dispatch as GET shows it now. */
export async function current(t: TestApp, vendorId: string, version = 1): Promise<any> {
  const res = await t.call({
    method: 'GET',
    url: `/v${version}/dispatches?vendor_ids[]=${encodeURIComponent(vendorId)}`,
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.dispatches.length, 1, `dispatch ${vendorId} listed once`);
  return res.body.dispatches[0].dispatch;
}

/** The stops of a v1 dispatch in order, as [vendor_id, …]. */
export function stopOrder(d: any): string[] {
  return [d.vendor_shipper_id, ...d.dispatch_stops.map((w: any) => w.dispatch_stop.vendor_id), d.vendor_consignee_id];
}

/** Rows of the outbox for this company, as [action, trigger]. */
export async function events(t: TestApp, subjectType = 'dispatch'): Promise<Array<[string, string | null]>> {
  const rows = await t.db.kysely
    .selectFrom('domain_events')
    .select(['action', 'trigger'])
    .where('company_id', '=', t.company.id)
    .where('subject_type', '=', subjectType)
    .orderBy('id')
    .execute();
  return rows.map((r) => [r.action, r.trigger]);
}
