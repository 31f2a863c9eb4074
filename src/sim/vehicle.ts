/**
 * One simulated truck: a deterministic state machine (seeded PRNG, simulated clock) that emits
 * device-protocol records every 10 s while the engine runs. A day looks like: engine on, driver login,
 * warm-up idle, a leg to another city at highway speed with now and then a hard brake, a speeding
 * stretch or an engine fault (broadcast every minute while the engine runs, then cleared or left to
 * expire), a rest or fuel stop every 2–3 hours (now and then with the gateway unplugged while the
 * engine is off, reported by `power` records), arrival, idle, engine off, logout, a break, and the
 * next leg.
 */
import { Prng } from '../demo/random.js';
import { along, planLeg, simCities, type City, type Route } from './route.js';

export type SimRecord = Record<string, unknown> & { type: string; time: string };

/** A vehicle's last stored fix (time in ms; the counters null when its device did not send them). */
export interface SimResume {
  t: number;
  lat: number;
  lon: number;
  /** What the vehicle's current place is called, for `where()`. */
  place: string;
  odometerKm: number | null;
  engineHours: number | null;
  fuelUsedL: number | null;
  fuelPct: number | null;
}

const STEP_S = 10;
const TANK_L = 600;
const FAULTS = [
  { protocol: 'j1939', spn: 110, fmi: 0, source_address: 0, lamps: { amber_warning: true } },
  { protocol: 'j1939', spn: 3226, fmi: 2, source_address: 61, lamps: { mil: true } },
  { protocol: 'j1939', spn: 100, fmi: 1, source_address: 0, lamps: { red_stop: true } },
  { protocol: 'j1939', spn: 168, fmi: 4, source_address: 0, lamps: null },
  { protocol: 'obd2', code: 'P0420', lamps: { mil: true } },
];

type Phase = 'parked' | 'warmup' | 'driving' | 'braking' | 'stopped' | 'resting';

export class SimVehicle {
  private rng: Prng;
  /** Draws for the gateway's unplugging, apart from `rng` so that adding them left every trip as it was. */
  private tamper: Prng;
  /** The gateway is unplugged (since a rest stop's engine stop) or its power state is not yet reported this run. */
  private power: 'unplugged' | 'unreported' | 'reported' = 'unreported';
  private t: number;
  private phase: Phase = 'parked';
  private until: number;
  private city: City;
  private route: Route | null = null;
  private km = 0;
  private speed = 0;
  private target = 95;
  private odometerKm: number;
  private engineHours: number;
  private fuelUsedL: number;
  private fuelPct = 90;
  private drivenSinceRestS = 0;
  private speedingUntil = 0;
  private fault: { spec: (typeof FAULTS)[number]; until: number; nextReport: number; clear: boolean } | null = null;

  /**
   * `resume`: the vehicle's last stored fix, if it has one. The truck then starts parked where that fix
   * was, after it (never before `startMs`), with its counters going on from there: a new run continues
   * a vehicle's history instead of writing a second track over time it already has.
   */
  constructor(
    readonly index: number,
    seed: number,
    startMs: number,
    private readonly driverId: number | null,
    resume: SimResume | null = null,
  ) {
    this.rng = new Prng((seed * 1_000_003 + index * 7919) >>> 0);
    this.tamper = new Prng(((seed * 1_000_003 + index * 7919) ^ 0x5bd1e995) >>> 0);
    this.t = resume ? Math.max(startMs, resume.t) : startMs;
    const cities = simCities().slice(0, 40);
    this.city = cities[(index + this.rng.int(0, cities.length - 1)) % cities.length];
    this.until = this.t + this.rng.int(0, 20) * 60_000;
    this.odometerKm = 150_000 + this.rng.int(0, 400_000);
    this.engineHours = 4000 + this.rng.int(0, 9000);
    this.fuelUsedL = 50_000 + this.rng.int(0, 200_000);
    if (resume) {
      this.city = { name: resume.place, region: '', lat: resume.lat, lon: resume.lon };
      this.odometerKm = resume.odometerKm ?? this.odometerKm;
      this.engineHours = resume.engineHours ?? this.engineHours;
      this.fuelUsedL = resume.fuelUsedL ?? this.fuelUsedL;
      this.fuelPct = resume.fuelPct ?? this.fuelPct;
    }
  }

  /** The current place (parked) or the route's ends. */
  where(): string {
    return this.route
      ? `${this.route.from.name} → ${this.route.to.name}`
      : [this.city.name, this.city.region].filter(Boolean).join(', ');
  }

  private pos() {
    return this.route ? along(this.route, this.km) : { lat: this.city.lat, lon: this.city.lon, bearing: 0 };
  }

  private fix(): SimRecord {
    const p = this.pos();
    return {
      type: 'location',
      time: new Date(this.t).toISOString(),
      lat: round(p.lat, 6),
      lon: round(p.lon, 6),
      speed_kph: round(this.speed, 1),
      bearing_deg: p.bearing,
      odometer_km: round(this.odometerKm, 2),
      engine_hours: round(this.engineHours, 2),
      fuel_used_l: round(this.fuelUsedL, 2),
      fuel_level_pct: round(this.fuelPct, 1),
      battery_v: 13.9,
      accuracy_m: 5,
    };
  }

  private at(type: string, extra: Record<string, unknown> = {}): SimRecord {
    const p = this.pos();
    return { type, time: new Date(this.t).toISOString(), lat: round(p.lat, 6), lon: round(p.lon, 6), ...extra };
  }

  /** Every record up to (not after) `untilMs`, in time order. */
  advance(untilMs: number): SimRecord[] {
    const out: SimRecord[] = [];
    for (let guard = 0; this.t + STEP_S * 1000 <= untilMs && guard < 100_000; guard++) {
      this.t += STEP_S * 1000;
      this.step(out);
    }
    return out;
  }

  private startEngine(out: SimRecord[]) {
    // Plugged (back) in: reported before the engine starts, and once at the first start of a run, so
    // that a run stopped while the gateway was out does not leave it out.
    if (this.power !== 'reported') out.push(this.at('power', { state: 'connected' }));
    this.power = 'reported';
    out.push(
      this.at('engine', { state: 'on', odometer_km: round(this.odometerKm, 2), fuel_used_l: round(this.fuelUsedL, 2) }),
    );
  }

  private step(out: SimRecord[]) {
    const rng = this.rng;
    if (this.phase === 'parked' || this.phase === 'resting') {
      if (this.t < this.until) return;
      this.startEngine(out);
      if (this.phase === 'parked') {
        if (this.driverId !== null)
          out.push({ type: 'driver', time: new Date(this.t).toISOString(), action: 'login', driver_id: this.driverId });
        this.route = planLeg(this.city, rng);
        this.km = 0;
      }
      this.phase = 'warmup';
      this.until = this.t + rng.int(2, 8) * 60_000;
      return;
    }
    this.engineHours += STEP_S / 3600;
    if (this.phase === 'warmup' || this.phase === 'stopped') {
      this.fuelUsedL += (3 * STEP_S) / 3600;
      // An active fault goes on being broadcast while the engine runs (DM1), standing or not.
      this.faults(out, false);
      out.push(this.fix());
      if (this.t < this.until) return;
      if (this.phase === 'stopped') return this.endStop(out);
      this.phase = 'driving';
      this.target = 88 + rng.int(0, 17);
      return;
    }
    this.drive(out);
  }

  private drive(out: SimRecord[]) {
    const rng = this.rng;
    const route = this.route!;
    const remaining = route.lengthKm - this.km;
    const braking = remaining < 1.5 || this.phase === 'braking';
    let target = this.t < this.speedingUntil ? 126 : this.target;
    if (this.phase === 'braking') target = 0;
    if (remaining < 1.5) target = Math.min(target, remaining * 60);
    this.speed += Math.max(-8, Math.min(6, target - this.speed)) * (STEP_S / 10) * (braking ? 2 : 1);
    const noise = target < 5 ? 0 : (rng.next() - 0.5) * 2;
    this.speed = Math.max(0, this.speed + noise);
    if (this.speed > 40 && rng.next() < 0.0015) {
      const g = -(0.35 + rng.next() * 0.3);
      out.push(
        this.at('acceleration', {
          longitudinal_g: round(g, 2),
          duration_ms: 1500,
          speed_kph: round(this.speed, 1),
          end_speed_kph: round(Math.max(0, this.speed - 25), 1),
        }),
      );
      this.speed = Math.max(0, this.speed - 25);
    }
    if (!braking && this.t >= this.speedingUntil && rng.next() < 0.0008)
      this.speedingUntil = this.t + rng.int(70, 150) * 1000;
    const km = (this.speed * STEP_S) / 3600;
    this.km += km;
    this.odometerKm += km;
    this.fuelUsedL += km * 0.36;
    this.fuelPct = Math.max(5, this.fuelPct - ((km * 0.36) / TANK_L) * 100);
    this.drivenSinceRestS += STEP_S;
    this.faults(out);
    out.push(this.fix());
    if (this.km >= route.lengthKm - 0.05 && this.speed < 1) {
      this.speed = 0;
      this.phase = 'stopped';
      this.until = this.t + rng.int(2, 6) * 60_000;
      return;
    }
    if (!braking && this.drivenSinceRestS > (2 + rng.next()) * 3600) this.phase = 'braking';
    if (this.phase === 'braking' && this.speed < 1 && remaining > 1.5) {
      this.speed = 0;
      this.phase = 'stopped';
      this.until = this.t + rng.int(3, 8) * 60_000;
    }
  }

  /** Reports the active fault (every minute) or clears it; `mayStart`: a new one may come up (while driving). */
  private faults(out: SimRecord[], mayStart = true) {
    const rng = this.rng;
    if (!this.fault && mayStart && rng.next() < 0.0004) {
      const spec = rng.pick(FAULTS);
      this.fault = { spec, until: this.t + rng.int(10, 40) * 60_000, nextReport: this.t, clear: rng.next() < 0.5 };
    }
    const f = this.fault;
    if (!f) return;
    const { lamps, ...code } = f.spec;
    if (this.t >= f.until) {
      if (f.clear) out.push({ type: 'fault', time: new Date(this.t).toISOString(), ...code, status: 'cleared' });
      this.fault = null;
    } else if (this.t >= f.nextReport) {
      out.push({
        type: 'fault',
        time: new Date(this.t).toISOString(),
        ...code,
        status: 'active',
        occurrence_count: 1,
        ...(lamps ? { lamps } : {}),
      });
      f.nextReport = this.t + 60_000;
    }
  }

  private endStop(out: SimRecord[]) {
    const rng = this.rng;
    const route = this.route!;
    out.push(
      this.at('engine', {
        state: 'off',
        odometer_km: round(this.odometerKm, 2),
        fuel_used_l: round(this.fuelUsedL, 2),
      }),
    );
    if (this.km >= route.lengthKm - 0.05) {
      if (this.driverId !== null)
        out.push({ type: 'driver', time: new Date(this.t).toISOString(), action: 'logout', driver_id: this.driverId });
      this.city = route.to;
      this.route = null;
      this.phase = 'parked';
      this.until = this.t + rng.int(30, 90) * 60_000;
    } else {
      if (this.fuelPct < 60) this.fuelPct = 95;
      this.phase = 'resting';
      this.until = this.t + rng.int(15, 30) * 60_000;
      if (this.tamper.next() < 0.1) {
        out.push(this.at('power', { state: 'disconnected' }));
        this.power = 'unplugged';
      }
    }
    this.drivenSinceRestS = 0;
  }
}

function round(x: number, d: number): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

export { simCities };
