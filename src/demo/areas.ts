/**
 * Demo data of the other areas, seeded through their own services (so every rule and event applies)
 * after the core fleet exists. Each area appends one seeder; they run in order.
 */
import type { Db } from '../storage/db.js';
import type { Tenant } from '../domain/tenant.js';
import { seedDispatchDemo } from './dispatch.js';
import { seedRecordsDemo } from './inspections.js';
import { seedTelemetryDemo } from '../sim/devices.js';
import { seedHosDemo } from './hos.js';

export const AREA_SEEDERS: Array<{ name: string; seed: (db: Db, t: Tenant) => Promise<unknown> }> = [
  { name: 'dispatch', seed: seedDispatchDemo },
  { name: 'records', seed: seedRecordsDemo },
  { name: 'telemetry', seed: seedTelemetryDemo },
  { name: 'hours_of_service', seed: (db, t) => seedHosDemo(db, t) },
];
