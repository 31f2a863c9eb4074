/**
 * Duty-status records from devices reach the hours-of-service store here, inside the same transaction
 * that processes them, in fix-time order. The HOS service re-evaluates the driver, stores and
 * announces violations, and updates the driver's duty status. A record the HOS rules refuse (e.g. one
 * that would shorten automatically recorded driving) stays in the raw telemetry but changes no log.
 *
 * Automatic driving detection runs here too: location fixes of a vehicle with a logged-in driver go
 * through the pure detector of the HOS area (driving above the ELD speed threshold, on duty proposed
 * after the stationary timeout); its small state is kept with the vehicle's processor state.
 *
 * Idempotency: the HOS store ignores a record with the same ELD device, sequence id and instant, so the
 * sequence id is derived from the record's instant; processing a record again (replay) changes nothing.
 */
import type { Db } from '../../storage/db.js';
import { recordDutyStatusEvents } from '../../domain/hos/service.js';
import type { DutyStatusInput } from '../../domain/hos/records.js';
import type { Input, RecordIn } from '../processors/types.js';
import { initialAutoDuty, stepAutoDuty, type AutoDutyState } from '../../domain/hos/auto-duty.js';
import type { Trx } from './tx.js';

export function hosSequenceId(tMs: number): number {
  return Math.floor(tMs / 1000) % 65536;
}

export interface AutoProposal {
  driverId: number;
  deviceId: number;
  status: 'driving' | 'on_duty';
  at: number;
}

/** The detector's state as saved with the vehicle's processor state (key `hos_auto`). */
export function savedAutoDuty(stateJson: string | null): AutoDutyState {
  try {
    return autoDutyOf(stateJson ? (JSON.parse(stateJson) as object) : null);
  } catch {
    return initialAutoDuty();
  }
}

/** The same from the saved state already parsed (the processors' state as loaded keeps the key). */
export const autoDutyOf = (saved: object | null): AutoDutyState => (saved as { hos_auto?: AutoDutyState } | null)?.hos_auto ?? initialAutoDuty();

/**
 * Steps the detector over records that went through the pipeline (each carries its context: the
 * logged-in driver, personal conveyance or yard move). Without a logged-in driver nothing is proposed.
 */
export function detectDriving(prev: AutoDutyState, records: RecordIn[]): { state: AutoDutyState; proposals: AutoProposal[] } {
  let state = prev;
  const proposals: AutoProposal[] = [];
  for (const r of records as Input[]) {
    if (r.type !== 'location' || r.speedKph === null || !r.ctx) continue;
    const special = r.ctx.special === 'personal_conveyance' || r.ctx.special === 'yard_move' ? r.ctx.special : null;
    const out = stepAutoDuty(state, { t: r.t, speedKph: r.speedKph, special });
    state = out.state;
    if (r.ctx.driverId === null) continue;
    for (const p of out.proposals) proposals.push({ driverId: r.ctx.driverId, deviceId: r.deviceId, status: p.status, at: p.at });
  }
  return { state, proposals };
}

export async function recordAutoDuty(db: Db, trx: Trx, companyId: number, vehicleId: number, proposals: AutoProposal[]): Promise<void> {
  for (const p of proposals) {
    await recordDutyStatusEvents(
      db,
      { companyId },
      p.driverId,
      [{ status: p.status, at: p.at, origin: 'auto', eldDeviceId: p.deviceId, vehicleId, sequenceId: hosSequenceId(p.at) }],
      { trx, skipRefused: true },
    );
  }
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
