/**
 * Provisioned devices: ELDs bound to a vehicle and asset gateways bound to an asset. The operator
 * provisions a device (`fleet device create`); it gets a credential shown once and stored as its SHA-256
 * digest, which the device presents when it reports (`authenticateDevice`). A serial number (identifier)
 * names one live device across all companies; a vehicle has at most one live ELD, an asset one live
 * gateway. Revoking a device frees its serial and its vehicle or asset for a replacement.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import { nowIso } from '../../storage/values.js';
import { countOf, isUniqueViolation } from '../../storage/query.js';
import { digest, newSecret } from '../../auth/secrets.js';
import { AppError, duplicate, notFound, validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import type { DevicesTable } from './tables.js';
import { vehicleRef } from '../vehicles/refs.js';
import { findAsset } from '../assets/repository.js';
import { getCompany } from '../companies/service.js';

export type DeviceRow = Selectable<DevicesTable>;
export type DeviceKind = 'eld' | 'asset_gateway';

export const DEFAULT_MODEL: Record<DeviceKind, string> = { eld: 'eld-1', asset_gateway: 'asset-gateway-1' };
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

export interface ProvisionInput {
  identifier: string;
  model?: string;
  /** Exactly one of vehicleId (an ELD) and assetId (an asset gateway). */
  vehicleId?: number;
  assetId?: number;
}

export interface ProvisionedDevice {
  id: number;
  company_id: number;
  kind: DeviceKind;
  vehicle_id: number | null;
  asset_id: number | null;
  identifier: string;
  model: string;
  /** The device's credential, shown only here. */
  device_token: string;
}

/** Who a credential belongs to, for the ingestion side. */
export interface DevicePrincipal {
  deviceId: number;
  companyId: number;
  kind: DeviceKind;
  vehicleId: number | null;
  assetId: number | null;
  identifier: string;
}

async function liveDeviceOf(db: Db, column: 'vehicle_id' | 'asset_id', id: number) {
  return db.kysely
    .selectFrom('devices')
    .select(['id', 'identifier'])
    .where(column, '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

async function checkProvision(
  db: Db,
  t: Tenant,
  input: ProvisionInput,
): Promise<{ kind: DeviceKind; identifier: string; model: string }> {
  const identifier = input.identifier.trim();
  if (!IDENTIFIER.test(identifier)) {
    throw validation(
      'identifier',
      'must be 1 to 64 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
    );
  }
  if ((input.vehicleId === undefined) === (input.assetId === undefined)) {
    throw validation('vehicle', 'or asset: give exactly one of them');
  }
  const kind: DeviceKind = input.vehicleId !== undefined ? 'eld' : 'asset_gateway';
  const model = (input.model ?? DEFAULT_MODEL[kind]).trim();
  if (!model || model.length > 64) throw validation('model', 'must be 1 to 64 characters long');
  await getCompany(db, t.companyId);
  if (input.vehicleId !== undefined) {
    const v = await vehicleRef(db.kysely, t.companyId, input.vehicleId);
    if (!v) throw notFound(`vehicle ${input.vehicleId}`);
    const bound = await liveDeviceOf(db, 'vehicle_id', input.vehicleId);
    if (bound)
      throw new AppError(
        'duplicate',
        `vehicle ${input.vehicleId} already has ELD device ${bound.id} (${bound.identifier}); revoke it first`,
      );
  } else {
    const a = await findAsset(db.kysely, t.companyId, input.assetId!);
    if (!a) throw notFound(`asset ${input.assetId}`);
    const bound = await liveDeviceOf(db, 'asset_id', input.assetId!);
    if (bound)
      throw new AppError(
        'duplicate',
        `asset ${input.assetId} already has gateway ${bound.id} (${bound.identifier}); revoke it first`,
      );
  }
  const taken = await db.kysely
    .selectFrom('devices')
    .select('id')
    .where('identifier', '=', identifier)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (taken) throw duplicate('identifier', identifier);
  return { kind, identifier, model };
}

/** Provisions a device bound to a vehicle or an asset of the company; the credential is returned once. */
export async function provisionDevice(db: Db, t: Tenant, input: ProvisionInput): Promise<ProvisionedDevice> {
  const { kind, identifier, model } = await checkProvision(db, t, input);
  const token = newSecret('fd');
  const now = nowIso();
  try {
    const row = await db.kysely
      .insertInto('devices')
      .values({
        company_id: t.companyId,
        kind,
        identifier,
        model,
        vehicle_id: input.vehicleId ?? null,
        asset_id: input.assetId ?? null,
        credential_digest: digest(token),
        revoked_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      id: row.id,
      company_id: t.companyId,
      kind,
      vehicle_id: input.vehicleId ?? null,
      asset_id: input.assetId ?? null,
      identifier,
      model,
      device_token: token,
    };
  } catch (err) {
    // A concurrent provisioning took the serial, the vehicle or the asset first: report it like the check does.
    if (isUniqueViolation(err)) await checkProvision(db, t, input);
    throw err;
  }
}

/** The device a credential belongs to, or null when it is unknown or revoked. */
export async function authenticateDevice(db: Db, credential: string): Promise<DevicePrincipal | null> {
  if (!credential) return null;
  // Kept in the read cache while `devices` is unchanged: a revocation or a move anywhere drops it at once.
  const hash = digest(credential.trim());
  const row = await db.cache.rememberFound(
    `device ${hash}`,
    async () =>
      (await db.kysely
        .selectFrom('devices')
        .select(['id', 'company_id', 'kind', 'vehicle_id', 'asset_id', 'identifier'])
        .where('credential_digest', '=', hash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()) ?? null,
  );
  if (!row) return null;
  return {
    deviceId: row.id,
    companyId: row.company_id,
    kind: row.kind as DeviceKind,
    vehicleId: row.vehicle_id,
    assetId: row.asset_id,
    identifier: row.identifier,
  };
}

/** The live device with this serial number, for protocols that send only the serial (e.g. OsmAnd `id`). */
export async function deviceByIdentifier(db: Db, identifier: string): Promise<DevicePrincipal | null> {
  const row = await db.kysely
    .selectFrom('devices')
    .select(['id', 'company_id', 'kind', 'vehicle_id', 'asset_id', 'identifier'])
    .where('identifier', '=', identifier.trim())
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  return {
    deviceId: row.id,
    companyId: row.company_id,
    kind: row.kind as DeviceKind,
    vehicleId: row.vehicle_id,
    assetId: row.asset_id,
    identifier: row.identifier,
  };
}

/** Revokes a device: its credential stops working at once. Revoking twice is not an error. */
export async function revokeDevice(db: Db, t: Tenant, id: number): Promise<SeenDevice> {
  const row = await getDevice(db, t, id);
  if (row.revoked_at) return row;
  const now = nowIso();
  await db.kysely.updateTable('devices').set({ revoked_at: now, updated_at: now }).where('id', '=', id).execute();
  return { ...row, revoked_at: now, updated_at: now };
}

/** A device with when it was last heard from (./activity.ts), as listed and shown. */
export type SeenDevice = DeviceRow & { last_seen_at: string | null };

/** The company's devices, each with its last_seen_at. */
const seenDevices = (db: Db, t: Tenant) =>
  db.kysely
    .selectFrom('devices')
    .leftJoin('device_activity', 'device_activity.device_id', 'devices.id')
    .where('devices.company_id', '=', t.companyId);

export async function getDevice(db: Db, t: Tenant, id: number): Promise<SeenDevice> {
  const row = await seenDevices(db, t)
    .selectAll('devices')
    .select('device_activity.last_seen_at')
    .where('devices.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`device ${id}`);
  return row;
}

/** Every device of the company (ELDs and asset gateways) in id order: the live ones, or with `revoked` all. */
export async function listDevices(db: Db, t: Tenant, f: { revoked?: boolean }, limit: number, offset: number) {
  let base = seenDevices(db, t);
  if (!f.revoked) base = base.where('devices.revoked_at', 'is', null);
  const [rows, total] = await Promise.all([
    base
      .selectAll('devices')
      .select('device_activity.last_seen_at')
      .orderBy('devices.id')
      .limit(limit)
      .offset(offset)
      .execute(),
    countOf(base.select('devices.id')),
  ]);
  return { rows, total };
}

export interface EldFilters {
  identifiers?: string[];
  vehicle_ids?: number[];
}

/** `GET /v1/eld_devices`: the company's live ELDs, in id order. */
export async function listEldDevices(db: Db, t: Tenant, f: EldFilters, limit: number, offset: number) {
  let base = db.kysely
    .selectFrom('devices')
    .where('company_id', '=', t.companyId)
    .where('kind', '=', 'eld')
    .where('revoked_at', 'is', null);
  if (f.identifiers?.length)
    base = base.where(
      'identifier',
      'in',
      f.identifiers.map((s) => s.trim()),
    );
  if (f.vehicle_ids?.length) base = base.where('vehicle_id', 'in', f.vehicle_ids);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

/** The live device bound to each of these vehicles (ELD) or assets (gateway), in one query. */
export async function boundDevices(
  db: Db,
  column: 'vehicle_id' | 'asset_id',
  ids: number[],
): Promise<Map<number, DeviceRow>> {
  const out = new Map<number, DeviceRow>();
  if (ids.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('devices')
    .selectAll()
    .where(column, 'in', ids)
    .where('revoked_at', 'is', null)
    .execute();
  for (const r of rows) out.set(r[column]!, r);
  return out;
}
