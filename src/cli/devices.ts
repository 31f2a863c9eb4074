/**
 * `fleet device …`: provision the devices that report telemetry. An ELD is bound to a vehicle, an asset
 * gateway to an asset; the device's credential is printed once and stored only as its digest.
 */
import { provisionDevice, revokeDevice } from '../domain/devices/service.js';
import { companyRef, findCompany, optionalFlag, positiveInt, requireFlag, UsageError, type Command } from './io.js';

export const deviceCreate: Command = {
  usage: 'device create --company ID --vehicle VID --identifier SERIAL [--model M]  (or --asset AID instead of --vehicle)',
  summary: "Provision an ELD bound to a vehicle (or a gateway bound to an asset); its credential is printed once.",
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
    const d = await provisionDevice(db, { companyId: company.id }, { identifier, model, vehicleId, assetId });
    const bound = d.vehicle_id !== null ? { vehicle_id: d.vehicle_id } : { asset_id: d.asset_id };
    const what = d.vehicle_id !== null ? `ELD ${d.id} on vehicle ${d.vehicle_id}` : `gateway ${d.id} on asset ${d.asset_id}`;
    ctx.print(
      { id: d.id, company_id: d.company_id, ...bound, identifier: d.identifier, model: d.model, device_token: d.device_token },
      `Provisioned ${what} (${d.identifier}, ${d.model}) in company ${d.company_id}. Its credential is shown only this once:\n${d.device_token}`,
    );
    return 0;
  },
};

export const deviceRevoke: Command = {
  usage: 'device revoke --company ID --id DEVICE',
  summary: 'Revoke a device: its credential stops working, and its serial and vehicle are free for a replacement.',
  flags: { company: { type: 'string' }, id: { type: 'string' } },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const id = positiveInt(requireFlag(flags, 'id'), 'id');
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const d = await revokeDevice(db, { companyId: company.id }, id);
    ctx.print({ id: d.id, company_id: d.company_id, identifier: d.identifier, revoked: true }, `Revoked device ${d.id} (${d.identifier})`);
    return 0;
  },
};
