/**
 * `fleet device …`: provision the devices that report telemetry. An ELD is bound to a vehicle, an asset
 * gateway to an asset; the device's credential is printed once and stored only as its digest.
 */
import {
  companyListing,
  companyRef,
  findCompany,
  optionalFlag,
  pageOf,
  PAGE_DETAILS,
  PAGE_FLAGS,
  PAGE_USAGE,
  positiveInt,
  RECORD_FLAGS,
  recordOf,
  requireFlag,
  UsageError,
  type Command,
} from './io.js';
import { printListing, printRecord } from './format.js';
import { wireTime } from '../storage/values.js';
import type { SeenDevice } from '../domain/devices/service.js';

/** A device as listed and shown: never its credential (only its digest is stored anyway). */
const deviceJson = (d: SeenDevice) => ({
  id: d.id,
  company_id: d.company_id,
  kind: d.kind,
  identifier: d.identifier,
  model: d.model,
  vehicle_id: d.vehicle_id,
  asset_id: d.asset_id,
  last_seen_at: wireTime(d.last_seen_at),
  revoked_at: wireTime(d.revoked_at),
  created_at: wireTime(d.created_at),
  updated_at: wireTime(d.updated_at),
});

export const deviceCreate: Command = {
  usage:
    'device create --company ID --vehicle VID --identifier SERIAL [--model M]  (or --asset AID instead of --vehicle)',
  summary: 'Provision an ELD bound to a vehicle (or a gateway bound to an asset); its credential is printed once.',
  flags: {
    company: { type: 'string' },
    vehicle: { type: 'string' },
    asset: { type: 'string' },
    identifier: { type: 'string' },
    model: { type: 'string' },
  },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const vehicle = optionalFlag(flags, 'vehicle');
    const asset = optionalFlag(flags, 'asset');
    if (vehicle && asset) throw new UsageError('give --vehicle or --asset, not both');
    if (!vehicle && !asset) throw new UsageError('--vehicle is required (or --asset for an asset gateway)');
    const vehicleId = vehicle ? positiveInt(vehicle, 'vehicle') : undefined;
    const assetId = asset ? positiveInt(asset, 'asset') : undefined;
    const identifier = requireFlag(flags, 'identifier');
    const model = optionalFlag(flags, 'model');
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const { provisionDevice } = await import('../domain/devices/service.js');
    const d = await provisionDevice(db, { companyId: company.id }, { identifier, model, vehicleId, assetId });
    const bound = d.vehicle_id !== null ? { vehicle_id: d.vehicle_id } : { asset_id: d.asset_id };
    const what =
      d.vehicle_id !== null ? `ELD ${d.id} on vehicle ${d.vehicle_id}` : `gateway ${d.id} on asset ${d.asset_id}`;
    ctx.print(
      {
        id: d.id,
        company_id: d.company_id,
        ...bound,
        identifier: d.identifier,
        model: d.model,
        device_token: d.device_token,
      },
      `Provisioned ${what} (${d.identifier}, ${d.model}) in company ${d.company_id}. Its credential is shown only this once:\n${d.device_token}`,
    );
    return 0;
  },
};

export const deviceRevoke: Command = {
  usage: 'device revoke --company ID --id DEVICE',
  summary: 'Revoke a device: its credential stops working, and its serial and vehicle are free for a replacement.',
  flags: RECORD_FLAGS,
  async run(flags, ctx) {
    const record = recordOf(flags);
    const { db, companyId } = await record.open(ctx);
    const { revokeDevice } = await import('../domain/devices/service.js');
    const d = await revokeDevice(db, { companyId }, record.id);
    ctx.print(
      { id: d.id, company_id: d.company_id, identifier: d.identifier, revoked: true },
      `Revoked device ${d.id} (${d.identifier})`,
    );
    return 0;
  },
};

export const deviceList: Command = {
  usage: `device list --company ID [--revoked] ${PAGE_USAGE}`,
  summary: "List a company's devices: ELDs and asset gateways, what each is bound to, when it last reported.",
  details: ['--revoked: the revoked devices too.', PAGE_DETAILS, 'With --json: {"devices": [...], "total": N}.'],
  flags: { company: { type: 'string' }, revoked: { type: 'boolean' }, ...PAGE_FLAGS },
  async run(flags, ctx) {
    const { db, company, page } = await companyListing(flags, ctx, () => null);
    const { listDevices } = await import('../domain/devices/service.js');
    const { rows, total } = await listDevices(
      db,
      { companyId: company.id },
      { revoked: flags.revoked === true },
      page.limit,
      page.offset,
    );
    printListing(ctx, {
      name: 'devices',
      rows,
      total,
      page,
      json: deviceJson,
      none: `No ${flags.revoked ? '' : 'live '}device in company ${company.id}.`,
      header: ['ID', 'KIND', 'IDENTIFIER', 'MODEL', 'BOUND TO', 'LAST SEEN', 'REVOKED'],
      cells: (d) => [
        d.id,
        d.kind,
        d.identifier,
        d.model,
        d.vehicle_id !== null ? `vehicle ${d.vehicle_id}` : `asset ${d.asset_id}`,
        wireTime(d.last_seen_at),
        wireTime(d.revoked_at),
      ],
    });
    return 0;
  },
};

export const deviceShow: Command = {
  usage: 'device show --company ID --id DEVICE',
  summary: 'Show one device (never its credential: only its digest is stored).',
  flags: RECORD_FLAGS,
  async run(flags, ctx) {
    const record = recordOf(flags);
    const { db, companyId } = await record.open(ctx);
    const { getDevice } = await import('../domain/devices/service.js');
    printRecord(ctx, deviceJson(await getDevice(db, { companyId }, record.id)));
    return 0;
  },
};

export const DEVICE_COMMANDS: Record<string, Command> = {
  'device create': deviceCreate,
  'device revoke': deviceRevoke,
  'device list': deviceList,
  'device show': deviceShow,
};
