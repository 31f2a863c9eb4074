/**
 * `fleet replay`: rebuilds derived telemetry (driving periods, idle events, fault codes, performance
 * events, geofence events, utilization; asset geofence events) from the stored records, for every
 * vehicle and asset of a company or one, from a day on (company-local midnight) or entirely, and adds
 * to drivers' logs the device records missing from them. Derived telemetry is not announced again; a
 * record added to a log is, as live (src/telemetry/store/replay.ts).
 */
import { companyRef, findCompany, optionalFlag, positiveInt, requireFlag, UsageError, type Command } from './io.js';
import type { ReplayResult, Subject } from '../telemetry/store/replay.js';
import { AppError } from '../core/errors.js';
import type { Db } from '../storage/db.js';

export const replayCommand: Command = {
  usage: 'replay --company ID [--vehicle VID | --asset AID] [--from YYYY-MM-DD]',
  summary:
    "Rebuild vehicles' and assets' derived telemetry, and drivers' logs, from their stored records (from a company-local day on, or all of it).",
  flags: {
    company: { type: 'string' },
    vehicle: { type: 'string' },
    asset: { type: 'string' },
    from: { type: 'string' },
  },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const vehicle = optionalFlag(flags, 'vehicle');
    const asset = optionalFlag(flags, 'asset');
    if (vehicle && asset) throw new UsageError('give --vehicle or --asset, not both');
    const only: Subject | undefined = vehicle
      ? { vehicleId: positiveInt(vehicle, 'vehicle') }
      : asset
        ? { assetId: positiveInt(asset, 'asset') }
        : undefined;
    const fromDay = optionalFlag(flags, 'from');
    // Loaded here, not at the top: src/cli/io.ts says why.
    const [{ replaySubject, replayTargets }, { startOfDay }, { validDay }, { companyTimeZone }] = await Promise.all([
      import('../telemetry/store/replay.js'),
      import('../core/time-zone.js'),
      import('../wire/record-dates.js'),
      import('../domain/companies/service.js'),
    ]);
    if (fromDay !== undefined) {
      try {
        validDay('from', fromDay);
      } catch (err) {
        throw new UsageError(err instanceof AppError ? `--${err.message}` : String(err));
      }
    }
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const zone = (await companyTimeZone(db, company.id))?.zone ?? 'UTC';
    const from = fromDay ? startOfDay(fromDay, zone) : null;
    if (only) await mustExist(db, company.id, only);
    const targets = await replayTargets(db, company.id, only);
    const results: ReplayResult[] = [];
    for (const s of targets)
      results.push(await replaySubject(db, company.id, s, from, ctx.config.telemetry.thresholds));
    const records = results.reduce((a, r) => a + r.records, 0);
    const hos = results.reduce((a, r) => a + r.hosRecords, 0);
    const counts = (['vehicle', 'asset'] as const).map((k) => {
      const n = results.filter((r) => (k === 'vehicle' ? r.vehicleId : r.assetId) !== undefined).length;
      return `${n} ${k}${n === 1 ? '' : 's'}`;
    });
    ctx.print(
      {
        company_id: company.id,
        from: from?.toISOString() ?? null,
        vehicles: results
          .filter((r) => r.vehicleId !== undefined)
          .map((r) => ({ vehicle_id: r.vehicleId, records: r.records, outputs: r.outputs, hos_records: r.hosRecords })),
        assets: results
          .filter((r) => r.assetId !== undefined)
          .map((r) => ({ asset_id: r.assetId, records: r.records, outputs: r.outputs })),
      },
      `Replayed ${records} records of ${counts.join(' and ')}${from ? ` from ${fromDay}` : ''}; ${hos} missing record${hos === 1 ? '' : 's'} added to drivers' logs.`,
    );
    return 0;
  },
};

/** The vehicle or asset asked for belongs to the company (else 404 naming it); having no telemetry is fine. */
async function mustExist(db: Db, companyId: number, s: Subject): Promise<void> {
  const [{ vehicleRef }, { findAsset }] = await Promise.all([
    import('../domain/vehicles/refs.js'),
    import('../domain/assets/repository.js'),
  ]);
  const [id, name] = s.vehicleId !== undefined ? [s.vehicleId, 'vehicle'] : [s.assetId!, 'asset'];
  const row =
    s.vehicleId !== undefined
      ? await vehicleRef(db.kysely, companyId, s.vehicleId)
      : await findAsset(db.kysely, companyId, s.assetId!);
  if (!row) throw new AppError('not_found', `${name} ${id} not found in company ${companyId}`);
}
