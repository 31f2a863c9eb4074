/**
 * `fleet simulate`: drives simulated trucks between real US and Canadian cities through a running
 * server's device API (docs/telemetry.md). The same --seed gives the same trips.
 */
import { companyRef, findCompany, optionalFlag, positiveInt, requireFlag, UsageError, type Command } from './io.js';
import { AppError } from '../core/errors.js';

/** `90`, `90s`, `45m`, `2h`, `1d` → seconds. */
export function parseDuration(v: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)?$/.exec(v.trim());
  if (!m) throw new UsageError(`--${flag} must be a duration such as 90s, 45m, 2h or 1d, got "${v}"`);
  const n = Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[(m[2] ?? 's') as 's' | 'm' | 'h' | 'd'];
  if (n <= 0 || n > 30 * 86_400) throw new UsageError(`--${flag} must be more than 0 and at most 30 days`);
  return n;
}

/** --url: an http(s) address, without a trailing slash. */
function serverUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`--url must be an http:// or https:// address, got "${v}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`--url must be an http:// or https:// address, got "${v}"`);
  return v.replace(/\/+$/, '');
}

async function mustAnswer(baseUrl: string): Promise<void> {
  let status: number | string;
  try {
    status = (await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5000) })).status;
  } catch (err) {
    status = ((err as Error).cause as Error | undefined)?.message ?? (err as Error).message;
  }
  if (status !== 200) {
    throw new AppError(
      'bad_request',
      `no fleet server answers at ${baseUrl} (GET /healthz: ${status}); start one with fleet serve, or pass --url`,
    );
  }
}

export const simulateCommand: Command = {
  usage: 'simulate --company ID --vehicles N [--speedup X] [--duration D] [--seed S] [--url URL]',
  summary: 'Drive N simulated trucks through the device API of the server at --url (default the PORT of this config).',
  flags: {
    company: { type: 'string' },
    vehicles: { type: 'string' },
    speedup: { type: 'string' },
    duration: { type: 'string' },
    seed: { type: 'string' },
    url: { type: 'string' },
  },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const count = positiveInt(requireFlag(flags, 'vehicles'), 'vehicles');
    const speedupRaw = optionalFlag(flags, 'speedup') ?? '1';
    const speedup = Number(speedupRaw);
    if (!Number.isFinite(speedup) || speedup < 1 || speedup > 10_000)
      throw new UsageError(`--speedup must be a number from 1 to 10000, got "${speedupRaw}"`);
    const durationS = flags.duration !== undefined ? parseDuration(String(flags.duration), 'duration') : undefined;
    const seed = flags.seed !== undefined ? positiveInt(String(flags.seed), 'seed') : 1;
    const baseUrl = serverUrl(optionalFlag(flags, 'url') ?? `http://${ctx.config.host}:${ctx.config.port}`);
    const { db } = await ctx.database();
    // Loaded here, not at the top: src/cli/io.ts says why.
    const [{ releaseSimDevices, simDevices }, { Simulation }, { showProgress }] = await Promise.all([
      import('../sim/devices.js'),
      import('../sim/runner.js'),
      import('../sim/progress.js'),
    ]);
    const company = await findCompany(db, ref);
    const tenant = { companyId: company.id };
    // Before the devices are (re)provisioned: nothing changes when there is no server to drive.
    await mustAnswer(baseUrl);
    const { devices, busy } = await simDevices(db, tenant, count);
    const log = (line: string) => void process.stderr.write(`fleet simulate: ${line}\n`);
    if (busy.length > 0)
      log(
        `vehicle${busy.length === 1 ? '' : 's'} ${busy.join(', ')}: driven by another simulator right now (its ELD reported in the last 3 minutes); left to it`,
      );
    if (devices.length === 0)
      throw new UsageError(
        `company ${company.id} has no active vehicle to simulate (one without another ELD and not driven by another simulator)`,
      );
    if (devices.length < count) {
      log(
        `company ${company.id} has ${devices.length} vehicle${devices.length === 1 ? '' : 's'} to simulate, not ${count}: simulating ${devices.length}`,
      );
    }
    const sim = new Simulation({ baseUrl, devices, seed, speedup, durationS, backfillS: speedup > 1 ? 3600 : 0, log });
    if (!ctx.json) for (const line of sim.describe()) log(line);
    const stop = () => void sim.stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const hide = showProgress(sim, devices.length, process.stderr, 'fleet simulate: ');
    const stats = await sim.run().finally(hide);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    // Its credentials are not used again: the vehicles are free for the next run at once.
    await releaseSimDevices(db, tenant, devices);
    if (stats.refused.length === devices.length)
      throw new AppError('bad_request', `the server refused every vehicle: ${stats.refused.join('; ')}`);
    if (stats.records === 0 && stats.produced === 0) {
      throw new AppError(
        'bad_request',
        `nothing was sent: the trucks were parked with their engines off for all ${stats.simulatedS} simulated seconds; simulate longer (--duration)`,
      );
    }
    if (stats.records === 0)
      throw new AppError(
        'bad_request',
        `nothing was sent in ${stats.simulatedS} simulated seconds (${stats.retries} failed attempts): is the server at ${baseUrl} answering?`,
      );
    ctx.print(
      { company_id: company.id, vehicles: devices.length, ...stats },
      `Simulated ${stats.simulatedS} s for ${devices.length} vehicles: ${stats.records} records in ${stats.batches} batches (${stats.rejected} rejected, ${stats.retries} retries` +
        `${stats.refused.length ? `, ${stats.refused.length} vehicles refused by the server` : ''}).`,
    );
    return stats.rejected > 0 || stats.refused.length > 0 ? 1 : 0;
  },
};
