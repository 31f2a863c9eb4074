/**
 * Demo assets and inspection reports for a freshly seeded company, made through the services (so every
 * rule and event applies): trailers with external ids, and for each driver–vehicle pair a pre-trip
 * report of the last days — clean, with open defects, corrected or harmless. Deterministic apart from
 * the times, which are relative to now so that the reports fall in the list's default week.
 */
import type { Db } from '../storage/db.js';
import type { Tenant } from '../domain/tenant.js';
import { createAsset } from '../domain/assets/service.js';
import { createInspectionReport, type DefectInput } from '../domain/inspections/create.js';
import { updateInspectionReport } from '../domain/inspections/update.js';
import { activeDriverIds } from '../domain/users/repository.js';
import { vehicleIdsOf } from '../domain/vehicles/repository.js';

const TRAILERS = [
  {
    name: 'TRL-5301',
    type: 'dry_van',
    make: 'Wabash',
    model: 'DuraPlate',
    year: '2021',
    length: 53,
    axle: 2,
    gvwr: 68000,
  },
  { name: 'TRL-5302', type: 'reefer', make: 'Utility', model: '3000R', year: '2020', length: 53, axle: 2, gvwr: 68000 },
  {
    name: 'TRL-4801',
    type: 'flatbed',
    make: 'Fontaine',
    model: 'Revolution',
    year: '2019',
    length: 48,
    axle: 2,
    gvwr: 80000,
    leased: true,
  },
];

const DEFECTS: DefectInput[][] = [
  [],
  [{ area: 'tractor', category: 'Mirrors', notes: 'Driver side mirror cracked' }],
  [
    { area: 'trailer', category: 'Lights', notes: 'Left marker light out' },
    { area: 'tractor', category: 'Tires' },
  ],
  [{ area: 'tractor', category: 'Windshield Wipers' }],
];

export interface RecordsDemoCounts {
  assets: number;
  inspection_reports: number;
}

export async function seedRecordsDemo(db: Db, t: Tenant): Promise<RecordsDemoCounts> {
  for (const a of TRAILERS) {
    await createAsset(db, t, {
      ...a,
      external_ids_attributes: [{ external_id: a.name, integration_name: 'demo_tms' }],
    });
  }
  const drivers = (await activeDriverIds(db.kysely, t.companyId, 6)).map((id) => ({ id }));
  const vehicles = (await vehicleIdsOf(db.kysely, t.companyId, 6)).map((id) => ({ id }));
  let reports = 0;
  for (const [i, d] of drivers.entries()) {
    const vehicle = vehicles[i];
    if (!vehicle) break;
    const time = new Date(Date.now() - (6 + i * 20) * 3_600_000);
    const defects = DEFECTS[i % DEFECTS.length];
    const report = await createInspectionReport(db, t, {
      driver_id: d.id,
      vehicle_id: vehicle.id,
      time: time.toISOString(),
      inspection_type: 'pre_trip',
      odometer: 182_000 + i * 7_315.5,
      trailer_nums: [TRAILERS[i % TRAILERS.length].name],
      defects,
      driver_signed_at: new Date(time.getTime() + 10 * 60_000).toISOString(),
      external_ids: [{ external_id: `DVIR-${1001 + i}`, integration_name: 'demo_tms' }],
    });
    reports++;
    // The mechanic (the company's first admin) settles the reports with several defects or with wipers.
    if (defects.length > 1)
      await updateInspectionReport(db, t, report.id, { status: 'corrected', mechanic_note: 'Repaired in the yard' });
    else if (i % DEFECTS.length === 3)
      await updateInspectionReport(db, t, report.id, { status: 'harmless', mechanic_note: 'Within limits' });
  }
  return { assets: TRAILERS.length, inspection_reports: reports };
}
