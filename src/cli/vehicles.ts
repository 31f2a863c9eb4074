/** `fleet vehicle create`: a vehicle to put a device on, without going through the API. */
import { createVehicle } from '../domain/vehicles/service.js';
import { companyRef, findCompany, optionalFlag, requireFlag, type Command } from './io.js';

export const vehicleCreate: Command = {
  usage: 'vehicle create --company ID --number NUMBER [--vin VIN] [--make M] [--model M] [--year Y]',
  summary: 'Create a vehicle (the same checks as POST /v1/vehicles); its id is what `device create --vehicle` takes.',
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
