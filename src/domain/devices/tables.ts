/** Kysely table type of provisioned devices (migration 0005_assets_devices). */
import type { Generated } from 'kysely';

export interface DevicesTable {
  id: Generated<number>;
  company_id: number;
  /** `eld` (bound to a vehicle, listed by /v1/eld_devices) or `asset_gateway` (bound to an asset). */
  kind: string;
  identifier: string;
  model: string;
  vehicle_id: number | null;
  asset_id: number | null;
  /** SHA-256 of the device credential; the credential itself is shown once at provisioning. */
  credential_digest: string;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** When a device was last heard from (migration 0024_device_activity; ./activity.ts). */
export interface DeviceActivityTable {
  device_id: number;
  last_seen_at: string;
}

export interface DeviceTables {
  devices: DevicesTable;
  device_activity: DeviceActivityTable;
}
