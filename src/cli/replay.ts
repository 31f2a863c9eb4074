/**
 * `fleet replay`: rebuilds derived telemetry (driving periods, idle events, fault codes, performance
 * events, geofence events, utilization) from the stored records, for every vehicle of a company or one,
 * from a day on (company-local midnight) or entirely. Nothing is announced again.
 */
import { companyRef, findCompany, optionalFlag, positiveInt, requireFlag, UsageError, type Command } from './io.js';
import { replayTargets, replayVehicle } from '../telemetry/store/replay.js';
import { startOfDay } from '../http/plumbing/time-zone.js';
import { TIME_ZONES } from '../domain/users/fields.js';
import { validDay } from '../http/wire/record-dates.js';
import { AppError } from '../http/plumbing/errors.js';

export const replayCommand: Command = {
  usage: 'replay --company ID [--vehicle VID] [--from YYYY-MM-DD]',
  summary: "Rebuild vehicles' derived telemetry from their stored records (from a company-local day on, or all of it).",
  flags: { company: { type: 'string' }, vehicle: { type: 'string' }, from: { type: 'string' } },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const vehicle = optionalFlag(flags, 'vehicle');
    const vehicleId = vehicle ? positiveInt(vehicle, 'vehicle') : undefined;
    const fromDay = optionalFlag(flags, 'from');
    if (fromDay !== undefined) {
      try {
        validDay('from', fromDay);
      } catch (err) {
        throw new UsageError(err instanceof AppError ? `--${err.message}` : String(err));
      }
    }
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const zone = (await db.kysely.selectFrom('companies').select('time_zone').where('id', '=', company.id).executeTakeFirstOrThrow()).time_zone;
    const from = fromDay ? startOfDay(fromDay, TIME_ZONES[zone] ?? 'UTC') : null;
    const ids = await replayTargets(db, company.id, vehicleId);
    if (vehicleId !== undefined && ids.length === 0) throw new AppError('not_found', `vehicle ${vehicleId} of company ${company.id} has no stored telemetry`);
    const results = [];
    for (const id of ids) results.push(await replayVehicle(db, company.id, id, from, ctx.config.telemetry.thresholds));
    const records = results.reduce((a, r) => a + r.records, 0);
    ctx.print(
      { company_id: company.id, from: from?.toISOString() ?? null, vehicles: results.map((r) => ({ vehicle_id: r.vehicleId, records: r.records, outputs: r.outputs })) },
      `Replayed ${records} records of ${results.length} vehicle${results.length === 1 ? '' : 's'}${from ? ` from ${fromDay}` : ''}.`,
    );
    return 0;
  },
};
