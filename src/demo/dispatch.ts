/**
 * Demo dispatch data for a freshly seeded company: forms with external ids, geocoded and address-only
 * dispatch locations, and dispatches in every state with form entries, all made through the services
 * (so every rule and event applies). Deterministic: it depends only on the company's drivers and
 * vehicles in id order.
 */
import type { Db } from '../storage/db.js';
import type { Tenant } from '../domain/tenant.js';
import { createLocation } from '../domain/dispatch/locations.js';
import { createForm, recordFormEntry } from '../domain/dispatch/forms.js';
import { createDispatch, updateDispatch } from '../domain/dispatch/service.js';
import { activeDriverIds } from '../domain/users/repository.js';
import { vehicleIdsOf } from '../domain/vehicles/repository.js';

const FORMS = [
  {
    id: '3a3ce3c2-d136-408e-b2c4-06673f7bd1da',
    name: 'Bill of lading',
    external_ids: [{ external_id: 'BOL', integration_name: 'demo_tms' }],
    fields: [{ name: 'bol', label: 'BOL number', type: 'text', required: true }],
  },
  {
    id: 'a4fa5e12-1252-4248-9508-16f00e6274e3',
    name: 'Loaded weight',
    external_ids: [{ external_id: 'WGT', integration_name: 'demo_tms' }],
    fields: [{ name: 'weight', label: 'Weight (lb)', type: 'number', required: true }],
  },
  {
    id: '16cbe497-05d5-45c5-ab00-ef0c40e7ddad',
    name: 'Proof of delivery',
    external_ids: [{ external_id: 'POD', integration_name: 'demo_tms' }],
    fields: [{ name: 'signed_by', label: 'Signed by', type: 'text', required: true }],
  },
];

/** Terminals and customers; the last two are address-only (not geocoded). */
const LOCATIONS = [
  {
    vendor_id: 'DEMO-COL',
    name: 'Columbus terminal',
    address1: '1200 Commerce Pkwy',
    city: 'Columbus',
    state: 'OH',
    zip: '43215',
    lat: 39.9612,
    lon: -82.9988,
  },
  {
    vendor_id: 'DEMO-IND',
    name: 'Indianapolis terminal',
    address1: '7850 Zionsville Rd',
    city: 'Indianapolis',
    state: 'IN',
    zip: '46268',
    lat: 39.8872,
    lon: -86.2631,
  },
  {
    vendor_id: 'DEMO-CHI',
    name: 'Chicago terminal',
    address1: '4200 S Cicero Ave',
    city: 'Chicago',
    state: 'IL',
    zip: '60632',
    lat: 41.8164,
    lon: -87.7434,
  },
  {
    vendor_id: 'DEMO-ATL',
    name: 'Atlanta terminal',
    address1: '3300 Fulton Industrial Blvd',
    city: 'Atlanta',
    state: 'GA',
    zip: '30336',
    lat: 33.7676,
    lon: -84.5632,
  },
  {
    vendor_id: 'DEMO-DAL',
    name: 'Dallas terminal',
    address1: '9600 Ambassador Row',
    city: 'Dallas',
    state: 'TX',
    zip: '75247',
    lat: 32.8306,
    lon: -96.8867,
  },
  {
    vendor_id: 'DEMO-CUST-1',
    name: 'Great Lakes Grocers DC',
    address1: '500 Harbor Dr',
    city: 'Toledo',
    state: 'OH',
    zip: '43604',
  },
  {
    vendor_id: 'DEMO-CUST-2',
    name: 'Bluegrass Hardware',
    address1: '88 Industrial Way',
    city: 'Louisville',
    state: 'KY',
    zip: '40213',
  },
];

export interface DispatchDemoCounts {
  forms: number;
  dispatch_locations: number;
  dispatches: number;
  form_entries: number;
}

export async function seedDispatchDemo(db: Db, t: Tenant): Promise<DispatchDemoCounts> {
  for (const f of FORMS) await createForm(db, t, f);
  for (const l of LOCATIONS) {
    const geocoded = l.lat !== undefined ? { arrive_radius: 0.5, depart_radius: 0.75 } : {};
    await createLocation(db, t, { ...l, ...geocoded, country: 'US', phone: '+1 800 555 0100' });
  }
  const drivers = (await activeDriverIds(db.kysely, t.companyId, 6)).map((id) => ({ id }));
  const vehicles = (await vehicleIdsOf(db.kysely, t.companyId, 6)).map((id) => ({ id }));
  const pairs = drivers
    .map((d, i) => [d.id, vehicles[i]?.id] as const)
    .filter((p): p is readonly [number, number] => p[1] !== undefined);
  let dispatches = 0;
  let entries = 0;
  for (const [i, [driver, vehicle]] of pairs.entries()) {
    const from = LOCATIONS[i % 5].vendor_id;
    const to = LOCATIONS[5 + (i % 2)].vendor_id;
    const v = `DEMO-${1001 + i}`;
    await createDispatch(db, t, {
      vendor_id: v,
      driver_id: driver,
      vehicle_id: vehicle,
      auto_complete_forms: true,
      shipper: {
        vendor_id: `${v}-S`,
        vendor_dispatch_location_id: from,
        type: 'pickup',
        form_ids: [FORMS[0].id, FORMS[1].id],
      },
      consignee: { vendor_id: `${v}-C`, vendor_dispatch_location_id: to, type: 'dropoff', form_ids: [FORMS[2].id] },
      dispatch_stops:
        i % 2
          ? [{ vendor_id: `${v}-X`, vendor_dispatch_location_id: LOCATIONS[(i + 1) % 5].vendor_id, type: 'fuel' }]
          : [],
    });
    dispatches++;
    const phase = i % 3; // 0: completed, 1: active with the pickup done, 2: planned
    if (phase === 2) continue;
    await updateDispatch(db, t, v, { status: 'active' });
    const submit = async (stop: string, form: string, entry: Record<string, unknown>) => {
      await recordFormEntry(db, t, {
        form_id: form,
        driver_id: driver,
        vendor_dispatch_id: v,
        vendor_stop_id: stop,
        entry,
      });
      entries++;
    };
    await submit(`${v}-S`, FORMS[0].id, { bol: `BOL-${v}` });
    await submit(`${v}-S`, FORMS[1].id, { weight: 38000 + i * 250 });
    if (phase === 1) continue;
    if (i % 2) await submit(`${v}-X`, FORMS[1].id, { weight: 38000 });
    await submit(`${v}-C`, FORMS[2].id, { signed_by: 'R. Alvarez' });
  }
  return { forms: FORMS.length, dispatch_locations: LOCATIONS.length, dispatches, form_entries: entries };
}
