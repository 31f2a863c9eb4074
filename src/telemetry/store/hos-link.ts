/**
 * Duty-status records from devices reach the hours-of-service store here, inside the same transaction
 * that processes them, in fix-time order. The HOS service re-evaluates the driver, stores and
 * announces violations, and updates the driver's duty status. A record the HOS rules refuse (e.g. one
 * that would shorten automatically recorded driving) stays in the raw telemetry but changes no log.
 *
 * Idempotency: the HOS store ignores a record with the same ELD device, sequence id and instant, so the
 * sequence id is derived from the record's instant; processing a record again (replay) changes nothing.
 */
import type { Db } from '../../storage/db.js';
import { recordDutyStatusEvents } from '../../domain/hos/service.js';
import type { DutyStatusInput } from '../../domain/hos/records.js';
import type { RecordIn } from '../processors/types.js';
import type { Trx } from './tx.js';

export function hosSequenceId(tMs: number): number {
  return Math.floor(tMs / 1000) % 65536;
}

export async function forwardDutyStatus(db: Db, trx: Trx, companyId: number, vehicleId: number, records: RecordIn[]): Promise<void> {
  for (const r of records) {
    if (r.type !== 'duty_status' || !r.data) continue;
    const driverId = Number(r.data.driver_id);
    if (!Number.isInteger(driverId) || driverId < 1) continue;
    await recordDutyStatusEvents(
      db,
      { companyId },
      driverId,
      [
        {
          status: r.data.status as DutyStatusInput,
          at: r.t,
          origin: 'driver',
          eldDeviceId: r.deviceId,
          vehicleId,
          sequenceId: hosSequenceId(r.t),
          lat: r.lat,
          lon: r.lon,
          location: r.description,
          odometerKm: r.odometerKm,
          notes: typeof r.data.note === 'string' ? r.data.note : null,
        },
      ],
      { trx, skipRefused: true },
    );
  }
}
