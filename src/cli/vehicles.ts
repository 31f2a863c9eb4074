/** `fleet vehicle create`: a vehicle to put a device on, without going through the API. */
import { createVehicle } from '../domain/vehicles/service.js';
import { VEHICLE_MAX_LENGTH } from '../domain/vehicles/fields.js';
import { companyRef, findCompany, optionalFlag, requireFlag, UsageError, type Command } from './io.js';

/** The longest value of each flag: the limits POST /v1/vehicles applies. */
const MAX_LENGTH = { number: VEHICLE_MAX_LENGTH.number, year: VEHICLE_MAX_LENGTH.year, vin: VEHICLE_MAX_LENGTH.text, make: VEHICLE_MAX_LENGTH.text, model: VEHICLE_MAX_LENGTH.text };

export const vehicleCreate: Command = {
  usage: 'vehicle create --company ID --number NUMBER [--vin VIN] [--make M] [--model M] [--year Y]',
  summary: 'Create a vehicle; its id is what `device create --vehicle` takes.',
  flags: {
    company: { type: 'string' },
    number: { type: 'string' },
    vin: { type: 'string' },
    make: { type: 'string' },
    model: { type: 'string' },
    year: { type: 'string' },
  },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const number = requireFlag(flags, 'number');
    const input: Record<string, string> = { number };
    for (const f of ['vin', 'make', 'model', 'year'] as const) {
      const v = optionalFlag(flags, f);
      if (v !== undefined) input[f] = v;
    }
    for (const [f, max] of Object.entries(MAX_LENGTH)) {
      if (input[f] !== undefined && input[f].length > max) throw new UsageError(`--${f} must be at most ${max} characters long`);
    }
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const v = await createVehicle(db, { companyId: company.id }, input);
    ctx.print(
      { id: v.id, company_id: v.company_id, number: v.number, vin: v.vin, make: v.make, model: v.model, year: v.year },
      `Created vehicle ${v.id} "${v.number}" in company ${v.company_id}`,
    );
    return 0;
  },
};
