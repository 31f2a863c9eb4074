/**
 * Driver performance events (docs/reference/domain-rules.md §6, §7 D-12, D-13): hard brake, hard acceleration and hard
 * corner from accelerometer records, or — for vehicles that never sent one — derived from speed and
 * heading samples at most `derivedMaxSampleS` apart (a = Δv/Δt, lateral ≈ v·Δheading/Δt), ignored
 * below `harshMinSpeedKph`, one event per excursion with its peak. Speeding: above the policy maximum
 * `speedingKph` for at least `speedingMinS`, ending at the first fix at or below it — but when a fix
 * comes more than `gapS` after the previous one, whatever its speed, it ends at the last fix before
 * the data gap, with that fix's time and speed, and the time without fixes counts for nothing (not
 * toward `speedingMinS` either). A speeding event is described twice: as soon as it has lasted `speedingMinS`
 * (ending at that fix) and when it ends; the writer stores the first and updates it with the second.
 */
import { exceeds, headingDelta, KPHPS_PER_G } from '../units.js';
import { segment } from './motion.js';
import {
  hasFix,
  type Env,
  type Input,
  type Output,
  type PerformanceRow,
  type SpeedingStats,
  type Step,
} from './types.js';

type Harsh = 'hard_brake' | 'hard_accel' | 'hard_corner';

interface Sample {
  t: number;
  lat: number;
  lon: number;
  speed: number;
  bearing: number | null;
  km: number | null;
  description: string | null;
}

interface Excursion {
  type: Harsh;
  first: Sample;
  lastS: Sample;
  peakG: number;
  samples: Sample[];
  driverId: number | null;
  deviceId: number;
}

interface Speeding {
  first: Sample;
  lastS: Sample;
  maxKph: number;
  driverId: number | null;
  deviceId: number;
  /** From first to lastS: lowest speed, speed × time (kph·ms, each fix's speed holding until the next), GPS path (m). Absent in state saved before they were kept. */
  minKph?: number;
  kphMs?: number;
  gpsM?: number;
}

/** The excursion's figures when it is described ending at `end` (lastS, or the fix at or below the limit that ends it). */
function speedingStats(sp: Speeding, end: Sample, limitKph: number): SpeedingStats {
  const tail = end === sp.lastS ? 0 : end.t - sp.lastS.t;
  const kphMs = (sp.kphMs ?? 0) + sp.lastS.speed * tail;
  const gpsM = (sp.gpsM ?? 0) + (end === sp.lastS ? 0 : segment(sp.lastS, end, true));
  const odo = sp.first.km !== null && end.km !== null && end.km >= sp.first.km ? end.km - sp.first.km : null;
  const ms = end.t - sp.first.t;
  return {
    limit_kph: limitKph,
    distance_km: odo ?? gpsM / 1000,
    avg_kph: ms > 0 ? kphMs / ms : sp.first.speed,
    min_kph: sp.minKph ?? Math.min(sp.first.speed, sp.lastS.speed),
  };
}

export interface PerformanceState {
  last: Sample | null;
  excursion: Excursion | null;
  speeding: Speeding | null;
  /** Set once an accelerometer record arrives: from then on nothing is derived from samples. */
  accelerometer: boolean;
}

export const initialPerformance = (): PerformanceState => ({
  last: null,
  excursion: null,
  speeding: null,
  accelerometer: false,
});

const samplesOf = (list: Sample[]) => ({
  lat: list.map((s) => s.lat),
  lon: list.map((s) => s.lon),
  heading: list.map((s) => s.bearing ?? 0),
  speed_kph: list.map((s) => s.speed),
});

function row(
  type: PerformanceRow['type'],
  first: Sample,
  lastS: Sample,
  peakG: number | null,
  list: Sample[],
  driverId: number | null,
  deviceId: number,
  maxKph?: number,
  stats?: SpeedingStats,
): Output {
  return {
    kind: 'performance',
    row: {
      type,
      start: first.t,
      end: lastS.t,
      deviceId,
      driverId,
      startSpeedKph: first.speed,
      endSpeedKph: lastS.speed,
      maxSpeedKph: maxKph ?? Math.max(...list.map((s) => s.speed)),
      startBearing: first.bearing,
      endBearing: lastS.bearing,
      peakG,
      lat: first.lat,
      lon: first.lon,
      location: first.description,
      odometerKm: first.km,
      samples: stats ? { ...samplesOf(list), stats } : samplesOf(list),
    },
  };
}

/** Which harsh type an acceleration (g, signed) and lateral acceleration (g) are, with their peak, or null. */
export function classify(longG: number | null, latG: number | null, env: Env): { type: Harsh; g: number } | null {
  const th = env.th;
  const cands: Array<{ type: Harsh; g: number; ratio: number }> = [];
  if (longG !== null && longG <= -th.hardBrakeG)
    cands.push({ type: 'hard_brake', g: longG, ratio: -longG / th.hardBrakeG });
  if (longG !== null && longG >= th.hardAccelG)
    cands.push({ type: 'hard_accel', g: longG, ratio: longG / th.hardAccelG });
  if (latG !== null && Math.abs(latG) >= th.hardCornerG)
    cands.push({ type: 'hard_corner', g: latG, ratio: Math.abs(latG) / th.hardCornerG });
  cands.sort((a, b) => b.ratio - a.ratio);
  return cands[0] ?? null;
}

function fromAccelerometer(state: PerformanceState, r: Input, env: Env): Step<PerformanceState> {
  const d = r.data ?? {};
  const speed = r.speedKph ?? state.last?.speed ?? null;
  const next = { ...state, accelerometer: true, excursion: null };
  // An excursion derived from speed samples until now ends here: the accelerometer takes over.
  const ex = state.excursion;
  const done = ex ? [row(ex.type, ex.first, ex.lastS, ex.peakG, ex.samples, ex.driverId, ex.deviceId)] : [];
  if (speed === null || speed < env.th.harshMinSpeedKph) return { state: next, outputs: done };
  const hit = classify(d.longitudinal_g ?? null, d.lateral_g ?? null, env);
  if (!hit) return { state: next, outputs: done };
  const lat = r.lat ?? state.last?.lat ?? null;
  const lon = r.lon ?? state.last?.lon ?? null;
  if (lat === null || lon === null) return { state: next, outputs: done };
  const first: Sample = {
    t: r.t,
    lat,
    lon,
    speed,
    bearing: r.bearing ?? state.last?.bearing ?? null,
    km: r.odometerKm ?? state.last?.km ?? null,
    description: r.description ?? state.last?.description ?? null,
  };
  const lastS: Sample = { ...first, t: r.t + (d.duration_ms ?? 0), speed: d.end_speed_kph ?? speed };
  return {
    state: next,
    outputs: [...done, row(hit.type, first, lastS, hit.g, [first, lastS], r.ctx.driverId, r.deviceId)],
  };
}

export function performance(state: PerformanceState, r: Input, env: Env): Step<PerformanceState> {
  if (r.type === 'acceleration') return fromAccelerometer(state, r, env);
  if (r.type !== 'location' || !hasFix(r) || r.speedKph === null) return { state, outputs: [] };
  const th = env.th;
  const s: Sample = {
    t: r.t,
    lat: r.lat,
    lon: r.lon,
    speed: r.speedKph,
    bearing: r.bearing,
    km: r.odometerKm,
    description: r.description,
  };
  const outputs: Output[] = [];
  const prev = state.last;
  const gap = prev !== null && r.t - prev.t > th.gapS * 1000;
  let { excursion, speeding } = state;

  // Speeding: an excursion over the policy maximum lasting speedingMinS.
  const over = exceeds(s.speed, th.speedingKph);
  if (speeding && (gap || !over)) {
    const end = gap ? speeding.lastS : s;
    if (end.t - speeding.first.t >= th.speedingMinS * 1000) {
      outputs.push(
        row(
          'speeding',
          speeding.first,
          end,
          null,
          [speeding.first, end],
          speeding.driverId,
          speeding.deviceId,
          speeding.maxKph,
          speedingStats(speeding, end, th.speedingKph),
        ),
      );
    }
    speeding = null;
  }
  if (over) {
    const before = speeding ? speeding.lastS.t - speeding.first.t : -1;
    speeding = speeding
      ? {
          first: speeding.first,
          lastS: s,
          maxKph: Math.max(speeding.maxKph, s.speed),
          driverId: speeding.driverId,
          deviceId: speeding.deviceId,
          minKph: Math.min(speeding.minKph ?? speeding.first.speed, s.speed),
          kphMs: (speeding.kphMs ?? 0) + speeding.lastS.speed * (s.t - speeding.lastS.t),
          gpsM: (speeding.gpsM ?? 0) + segment(speeding.lastS, s, true),
        }
      : {
          first: s,
          lastS: s,
          maxKph: s.speed,
          driverId: r.ctx.driverId,
          deviceId: r.deviceId,
          minKph: s.speed,
          kphMs: 0,
          gpsM: 0,
        };
    // Once it has lasted speedingMinS it is an event: described now, while it lasts, and again when it ends.
    const minMs = th.speedingMinS * 1000;
    if (before < minMs && s.t - speeding.first.t >= minMs) {
      outputs.push(
        row(
          'speeding',
          speeding.first,
          s,
          null,
          [speeding.first, s],
          speeding.driverId,
          speeding.deviceId,
          speeding.maxKph,
          speedingStats(speeding, s, th.speedingKph),
        ),
      );
    }
  }

  // Harsh events derived from consecutive samples.
  let hit: { type: Harsh; g: number } | null = null;
  const dt = prev ? (r.t - prev.t) / 1000 : Infinity;
  if (
    !state.accelerometer &&
    prev &&
    dt > 0 &&
    dt <= th.derivedMaxSampleS &&
    Math.max(prev.speed, s.speed) >= th.harshMinSpeedKph
  ) {
    const longG = (s.speed - prev.speed) / dt / KPHPS_PER_G;
    const turn =
      prev.bearing !== null && s.bearing !== null ? (headingDelta(prev.bearing, s.bearing) * Math.PI) / 180 / dt : 0;
    const latG = (((prev.speed + s.speed) / 2 / 3.6) * turn) / 9.80665;
    hit = classify(longG, latG, env);
  }
  if (excursion && (!hit || hit.type !== excursion.type)) {
    outputs.push(
      row(
        excursion.type,
        excursion.first,
        excursion.lastS,
        excursion.peakG,
        excursion.samples,
        excursion.driverId,
        excursion.deviceId,
      ),
    );
    excursion = null;
  }
  if (hit && prev) {
    excursion = excursion
      ? {
          ...excursion,
          lastS: s,
          samples: [...excursion.samples, s],
          peakG: Math.abs(hit.g) > Math.abs(excursion.peakG) ? hit.g : excursion.peakG,
        }
      : {
          type: hit.type,
          first: prev,
          lastS: s,
          peakG: hit.g,
          samples: [prev, s],
          driverId: r.ctx.driverId,
          deviceId: r.deviceId,
        };
  }
  return { state: { last: s, excursion, speeding, accelerometer: state.accelerometer }, outputs };
}
