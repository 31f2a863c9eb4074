/**
 * `fleet vehicle …`: create, list, show, update, deactivate. Changes go through the vehicles service
 * (src/domain/vehicles/service.ts), as PUT /v1/vehicles/:id does: the same checks (a number unique in
 * the company) and the same `vehicle_upserted` event for webhooks.
 */
import {
  companyListing,
  choiceFlag,
  companyRef,
  findCompany,
  pageOf,
  PAGE_DETAILS,
  PAGE_FLAGS,
  PAGE_USAGE,
  RECORD_FLAGS,
  recordOf,
  requireFlag,
  textFlags,
  UsageError,
  type Command,
  type Ctx,
  type Flags,
} from './io.js';
import { printListing, printRecord } from './format.js';
import { VEHICLE_MAX_LENGTH, VEHICLE_STATUSES } from '../domain/vehicles/fields.js';
import type { Db } from '../storage/db.js';
import type { VehicleRow } from '../domain/vehicles/service.js';

/** The text flags and their longest values: the limits of POST and PUT /v1/vehicles. */
const TEXT = VEHICLE_MAX_LENGTH.text;
const CREATE_FLAGS = {
  number: VEHICLE_MAX_LENGTH.number,
  vin: TEXT,
  make: TEXT,
  model: TEXT,
  year: VEHICLE_MAX_LENGTH.year,
};
const UPDATE_FLAGS = { ...CREATE_FLAGS, notes: TEXT, 'license-plate-number': TEXT, 'license-plate-state': TEXT };

const stringFlags = (names: string[]) => Object.fromEntries(names.map((f) => [f, { type: 'string' as const }]));
/** `license-plate-number` → `license_plate_number`: the flags as the service's (and the API's) field names. */
const asInput = (given: Record<string, string>) =>
  Object.fromEntries(Object.entries(given).map(([f, v]) => [f.replace(/-/g, '_'), v]));

/** Vehicles as GET /v1/vehicles shows them (driver summaries, groups, ELD, external ids). */
async function vehiclesJson(db: Db, companyId: number, rows: VehicleRow[]) {
  const { vehiclesWire } = await import('../wire/pages.js');
  return vehiclesWire(db, companyId, rows);
}

const brief = (v: VehicleRow) => ({
  id: v.id,
  company_id: v.company_id,
  number: v.number,
  status: v.status,
  vin: v.vin,
  make: v.make,
  model: v.model,
  year: v.year,
});

export const vehicleCreate: Command = {
  usage: 'vehicle create --company ID --number NUMBER [--vin VIN] [--make M] [--model M] [--year Y]',
  summary: 'Create a vehicle; its id is what `device create --vehicle` takes.',
  flags: { company: { type: 'string' }, ...stringFlags(Object.keys(CREATE_FLAGS)) },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    requireFlag(flags, 'number');
    const input = asInput(textFlags(flags, CREATE_FLAGS));
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const { createVehicle } = await import('../domain/vehicles/service.js');
    const v = await createVehicle(db, { companyId: company.id }, input);
    const { status: _status, ...created } = brief(v);
    ctx.print(created, `Created vehicle ${v.id} "${v.number}" in company ${v.company_id}`);
    return 0;
  },
};

export const vehicleList: Command = {
  usage: `vehicle list --company ID [--status STATUS] ${PAGE_USAGE}`,
  summary: "List a company's vehicles.",
  details: [
    `STATUS: ${VEHICLE_STATUSES.join(', ')}.`,
    PAGE_DETAILS,
    'With --json: {"vehicles": [...], "total": N}, each vehicle as GET /v1/vehicles shows it.',
  ],
  flags: { company: { type: 'string' }, status: { type: 'string' }, ...PAGE_FLAGS },
  async run(flags, ctx) {
    const {
      db,
      company,
      page,
      own: status,
    } = await companyListing(flags, ctx, () => choiceFlag(flags, 'status', VEHICLE_STATUSES));
    const { listVehicles } = await import('../domain/vehicles/service.js');
    const { rows, total } = await listVehicles(db, { companyId: company.id }, { status }, page.limit, page.offset);
    const wire = new Map((await vehiclesJson(db, company.id, rows)).map((w) => [w.id, w]));
    printListing(ctx, {
      name: 'vehicles',
      rows,
      total,
      page,
      json: (v) => wire.get(v.id),
      none: `No vehicle in company ${company.id}${status ? ` with status ${status}` : ''}.`,
      header: ['ID', 'NUMBER', 'STATUS', 'MAKE', 'MODEL', 'YEAR', 'VIN', 'ELD'],
      cells: (v) => [v.id, v.number, v.status, v.make, v.model, v.year, v.vin, wire.get(v.id)?.eld_device?.identifier],
    });
    return 0;
  },
};

/** Finds the vehicle of `--company ID --id ID`. */
async function theVehicle(flags: Flags, ctx: Ctx) {
  const record = recordOf(flags);
  const { db, companyId } = await record.open(ctx);
  const vehicles = await import('../domain/vehicles/service.js');
  return {
    db,
    t: { companyId },
    id: record.id,
    vehicles,
    vehicle: await vehicles.getVehicle(db, { companyId }, record.id),
  };
}

export const vehicleShow: Command = {
  usage: 'vehicle show --company ID --id ID',
  summary: 'Show one vehicle.',
  details: ['With --json: the vehicle as GET /v1/vehicles/:id shows it.'],
  flags: RECORD_FLAGS,
  async run(flags, ctx) {
    const { db, t, vehicle } = await theVehicle(flags, ctx);
    printRecord(ctx, (await vehiclesJson(db, t.companyId, [vehicle]))[0]);
    return 0;
  },
};

export const vehicleUpdate: Command = {
  usage:
    'vehicle update --company ID --id ID [--number N] [--vin V] [--make M] [--model M] [--year Y] [--notes T] [--license-plate-number P] [--license-plate-state S] [--status STATUS]',
  summary: "Change a vehicle's number, identity, notes or status (what is not given stays as it is).",
  details: [`STATUS: ${VEHICLE_STATUSES.join(', ')}.`, 'An empty value (--vin "") is refused.'],
  flags: { ...RECORD_FLAGS, ...stringFlags(Object.keys(UPDATE_FLAGS)), status: { type: 'string' } },
  async run(flags, ctx) {
    recordOf(flags);
    const input: Record<string, string> = asInput(textFlags(flags, UPDATE_FLAGS));
    const status = choiceFlag(flags, 'status', VEHICLE_STATUSES);
    if (status) input.status = status;
    if (Object.keys(input).length === 0)
      throw new UsageError(
        `nothing to change: give at least one of --${[...Object.keys(UPDATE_FLAGS), 'status'].join(', --')}`,
      );
    const { db, t, id, vehicles } = await theVehicle(flags, ctx);
    const v = await vehicles.updateVehicle(db, t, id, input);
    ctx.print(brief(v), `Updated vehicle ${v.id} "${v.number}" (${v.status})`);
    return 0;
  },
};

export const vehicleDeactivate: Command = {
  usage: 'vehicle deactivate --company ID --id ID',
  summary: 'Deactivate a vehicle; its records stay (vehicle update --status active undoes it).',
  flags: RECORD_FLAGS,
  async run(flags, ctx) {
    recordOf(flags);
    const { db, t, id, vehicles } = await theVehicle(flags, ctx);
    const v = await vehicles.updateVehicle(db, t, id, { status: 'deactivated' });
    ctx.print(brief(v), `Deactivated vehicle ${v.id} "${v.number}"`);
    return 0;
  },
};

export const VEHICLE_COMMANDS: Record<string, Command> = {
  'vehicle create': vehicleCreate,
  'vehicle list': vehicleList,
  'vehicle show': vehicleShow,
  'vehicle update': vehicleUpdate,
  'vehicle deactivate': vehicleDeactivate,
};
