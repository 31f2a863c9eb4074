/**
 * Runs simulated trucks against a server through the device API over HTTP (the same path a real
 * device takes). The simulated clock runs `speedup` times faster than the wall clock but never ahead
 * of it: a bounded run of `durationS` starts that far in the past (minus the time it takes) and ends
 * now; an open-ended run starts `backfillS` in the past, catches up, then runs in real time. Each
 * vehicle posts its records in order, in batches; a failed post (no answer, 5xx, 408, 429) is retried
 * with the same records and sequence numbers (harmless: the server answers duplicates). Any other 4xx
 * (an unknown or revoked credential, a refused body) would be answered the same way again: that
 * vehicle stops and the run reports why. A vehicle with stored fixes resumes after its last one.
 */
import { SimVehicle, type SimRecord, type SimResume } from './vehicle.js';

export interface SimDevice {
  deviceId: number;
  vehicleId: number;
  driverId: number | null;
  token: string;
  /** The vehicle's last stored fix: it goes on from there (SimVehicle). */
  resume?: SimResume | null;
}

export interface SimOptions {
  baseUrl: string;
  devices: SimDevice[];
  seed: number;
  speedup: number;
  /** Simulated seconds to run; open-ended (until stop) when undefined. */
  durationS?: number;
  /** Open-ended runs only: how far in the past the simulated clock starts, seconds. */
  backfillS?: number;
  /** Wall milliseconds between rounds. Default 1000. */
  tickMs?: number;
  batchMax?: number;
  log?: (line: string) => void;
  /** Wall clock (tests move it). */
  now?: () => number;
}

export interface SimStats {
  /** Records the trucks produced (a truck parked with its engine off produces none). */
  produced: number;
  /** Records the server answered (accepted or rejected each). */
  records: number;
  batches: number;
  retries: number;
  rejected: number;
  simulatedS: number;
  /** Vehicles stopped because the server refused their batches for good (a 4xx answer), with why. */
  refused: string[];
}

interface Lane {
  device: SimDevice;
  vehicle: SimVehicle;
  pending: SimRecord[];
  seq: number;
  /** Why the server refused this vehicle's batches for good; the lane is stopped. */
  refused: string | null;
}

export class Simulation {
  private lanes: Lane[];
  private stopped = false;
  private readonly start: number;
  private readonly wallStart: number;
  readonly stats: SimStats = {
    produced: 0,
    records: 0,
    batches: 0,
    retries: 0,
    rejected: 0,
    simulatedS: 0,
    refused: [],
  };
  private done: Promise<SimStats> | null = null;

  constructor(private readonly opts: SimOptions) {
    const now = (opts.now ?? Date.now)();
    this.wallStart = now;
    this.start =
      opts.durationS !== undefined
        ? now + (opts.durationS * 1000) / opts.speedup - opts.durationS * 1000
        : now - (opts.backfillS ?? 0) * 1000;
    this.lanes = opts.devices.map((device, i) => ({
      device,
      vehicle: new SimVehicle(i, opts.seed, this.start, device.driverId, device.resume ?? null),
      pending: [],
      seq: 0,
      refused: null,
    }));
  }

  /** The simulated instant for a wall instant: speedup times faster, never ahead of the wall clock. */
  clock(wall: number): number {
    const sim = Math.min(wall, this.start + (wall - this.wallStart) * this.opts.speedup);
    return this.opts.durationS !== undefined ? Math.min(sim, this.start + this.opts.durationS * 1000) : sim;
  }

  private async post(lane: Lane): Promise<void> {
    const max = this.opts.batchMax ?? 500;
    while (lane.pending.length > 0 && !this.stopped) {
      const batch = lane.pending.slice(0, max);
      let res: Response;
      try {
        res = await fetch(`${this.opts.baseUrl}/device/v1/batches`, {
          method: 'POST',
          headers: { authorization: `Bearer ${lane.device.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ records: batch }),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (err) {
        this.stats.retries++;
        this.opts.log?.(`vehicle ${lane.device.vehicleId}: ${(err as Error).message}; retrying`);
        return;
      }
      if (!res.ok) {
        const answer = `HTTP ${res.status} ${await res.text()}`;
        if (!permanent(res.status)) {
          this.stats.retries++;
          this.opts.log?.(`vehicle ${lane.device.vehicleId}: ${answer}; retrying`);
          return;
        }
        // Sending the same batch again would get the same answer: this vehicle stops, the others go on.
        lane.refused = `vehicle ${lane.device.vehicleId}: ${answer}${res.status === 401 ? " (the server does not know this device: does this command use the server's DATABASE_URL?)" : ''}`;
        lane.pending = [];
        this.stats.refused.push(lane.refused);
        this.opts.log?.(`${lane.refused}; this vehicle is stopped`);
        return;
      }
      const body = (await res.json()) as { rejected: number };
      this.stats.rejected += body.rejected;
      this.stats.records += batch.length;
      this.stats.batches++;
      lane.pending = lane.pending.slice(batch.length);
    }
  }

  /** One round: advance every vehicle to the simulated now and post what it produced. */
  async round(): Promise<boolean> {
    const sim = this.clock((this.opts.now ?? Date.now)());
    this.stats.simulatedS = Math.round((sim - this.start) / 1000);
    const live = this.lanes.filter((l) => l.refused === null);
    for (const lane of live) {
      for (const r of lane.vehicle.advance(sim)) {
        lane.pending.push({ ...r, seq: ++lane.seq });
        this.stats.produced++;
      }
    }
    await Promise.all(live.map((l) => this.post(l)));
    if (this.lanes.every((l) => l.refused !== null)) return true;
    const finished = this.opts.durationS !== undefined && sim >= this.start + this.opts.durationS * 1000;
    return finished && this.lanes.every((l) => l.pending.length === 0);
  }

  /** Runs rounds until the duration is simulated (and posted), every vehicle is refused, or stop() is called. */
  run(): Promise<SimStats> {
    this.done ??= (async () => {
      const tick = this.opts.tickMs ?? 1000;
      let failures = 0;
      while (!this.stopped) {
        const t0 = Date.now();
        try {
          if (await this.round()) break;
          failures = 0;
        } catch (err) {
          if (++failures > 100) throw err;
        }
        const wait = tick - (Date.now() - t0);
        if (wait > 0 && !this.stopped) await new Promise((r) => setTimeout(r, wait));
      }
      return this.stats;
    })();
    return this.done;
  }

  async stop(): Promise<SimStats> {
    this.stopped = true;
    return (await this.done) ?? this.stats;
  }

  /** Where the run stands: simulated seconds so far, of how many (null: open-ended), and the simulated instant. */
  progress(): { simulatedS: number; durationS: number | null; at: number } {
    return {
      simulatedS: this.stats.simulatedS,
      durationS: this.opts.durationS ?? null,
      at: this.start + this.stats.simulatedS * 1000,
    };
  }

  describe(): string[] {
    return this.lanes.map((l) => `vehicle ${l.device.vehicleId}: ${l.vehicle.where()}`);
  }
}

/** A 4xx answer other than 408 (timeout) and 429 (slow down): sending the same batch again cannot help. */
const permanent = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;
