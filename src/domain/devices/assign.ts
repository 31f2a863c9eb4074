/**
 * Moving a live ELD (or phone tracker) to another vehicle of its company, as a fleet does when a unit
 * is swapped between trucks: the credential stays, the records it sends from then on are the new
 * vehicle's, and what it sent before stays with the old one. A vehicle keeps at most one live ELD (the
 * partial unique index `devices_vehicle_uq` decides between concurrent moves); a revoked device and an
 * asset gateway are not moved. Phone trackers are ELD devices whose model is PHONE_MODEL: the OsmAnd
 * protocol (docs/device-protocol.md) names the device by its identifier only.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../storage/db.js';
import { nowIso } from '../../storage/values.js';
import { isUniqueViolation } from '../../storage/query.js';
import { AppError, notFound } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import { getDevice, type SeenDevice } from './service.js';
import { vehicleRef } from '../vehicles/refs.js';

/** The model recorded for a phone running OsmAnd or Traccar Client. */
export const PHONE_MODEL = 'phone';

export const isPhone = (d: { kind: string; model: string }) => d.kind === 'eld' && d.model === PHONE_MODEL;

/**
 * An identifier for a phone tracker: the OsmAnd protocol has no credential, so whoever knows the
 * identifier can report for it, and a serial that cannot be guessed is the phone's only protection.
 */
export function phoneIdentifier(): string {
  return `phone-${randomBytes(10).toString('base64url').replace(/[-_]/g, 'x')}`;
}

async function vehicleDevice(db: Db, vehicleId: number) {
  return db.kysely
    .selectFrom('devices')
    .select(['id', 'identifier'])
    .where('vehicle_id', '=', vehicleId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

async function checkMove(db: Db, t: Tenant, device: SeenDevice, vehicleId: number): Promise<void> {
  if (device.kind !== 'eld')
    throw new AppError('invalid_state', `device ${device.id} (${device.identifier}) is an asset gateway, not an ELD`);
  if (device.revoked_at)
    throw new AppError(
      'invalid_state',
      `device ${device.id} (${device.identifier}) has been revoked; provision a new device for this vehicle`,
    );
  const vehicle = await vehicleRef(db.kysely, t.companyId, vehicleId);
  if (!vehicle) throw notFound(`vehicle ${vehicleId}`);
  const bound = await vehicleDevice(db, vehicleId);
  if (bound && bound.id !== device.id)
    throw new AppError(
      'duplicate',
      `vehicle ${vehicleId} already has ELD device ${bound.id} (${bound.identifier}); revoke it first`,
    );
}

/** Binds the company's live ELD `id` to `vehicleId`; binding it to its own vehicle changes nothing. */
export async function assignDevice(db: Db, t: Tenant, id: number, vehicleId: number): Promise<SeenDevice> {
  const device = await getDevice(db, t, id);
  await checkMove(db, t, device, vehicleId);
  if (device.vehicle_id === vehicleId) return device;
  const now = nowIso();
  try {
    await db.kysely
      .updateTable('devices')
      .set({ vehicle_id: vehicleId, updated_at: now })
      .where('id', '=', id)
      .where('company_id', '=', t.companyId)
      .execute();
  } catch (err) {
    // Another device took the vehicle in the meantime: say so as the check does.
    if (isUniqueViolation(err)) await checkMove(db, t, device, vehicleId);
    throw err;
  }
  return { ...device, vehicle_id: vehicleId, updated_at: now };
}
