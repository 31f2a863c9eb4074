/** Unit conversions used by the telemetry pipeline and its wire mappers. Internal values carry SI-ish units in their names. */
export const KM_PER_MI = 1.609344;
export const L_PER_GAL = 3.785411784;
export const KPH_PER_KNOT = 1.852;
/** 1 g in kph per second (9.80665 m/s² × 3.6). */
export const KPHPS_PER_G = 35.30394;
const EARTH_RADIUS_M = 6_371_008.8;

/**
 * Speeds are compared with their thresholds to within this (kph): a speed converted from exactly
 * 5 or 75 mph (8.046720000000001, 120.70080000000002) is at the threshold, not above it.
 */
export const KPH_TOLERANCE = 1e-6;
/** Whether a speed is above a speed threshold (both kph), to within KPH_TOLERANCE. */
export const exceeds = (kph: number, limitKph: number) => kph > limitKph + KPH_TOLERANCE;
export const kphToMph = (kph: number) => kph / KM_PER_MI;
export const mphToKph = (mph: number) => mph * KM_PER_MI;
export const kmToMi = (km: number) => km / KM_PER_MI;
export const litersToGallons = (l: number) => l / L_PER_GAL;

/** Rounds to `digits` decimals (wire values are rounded, stored values are not). */
export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function roundOrNull(x: number | null | undefined, digits = 1): number | null {
  return x === null || x === undefined ? null : round(x, digits);
}

/** Wire values: mph and miles to 0.1, gallons to 0.01, coordinates to 6 decimals (about 0.1 m). */
export const mph = (kph: number | null | undefined) =>
  kph === null || kph === undefined ? null : round(kphToMph(kph), 1);
export const miles = (km: number | null | undefined) => (km === null || km === undefined ? null : round(kmToMi(km), 1));
export const gallons = (l: number | null | undefined) =>
  l === null || l === undefined ? null : round(litersToGallons(l), 2);
export const coord = (x: number) => round(x, 6);

const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance, meters (haversine; fast enough for every fix). */
export function haversineM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Initial bearing from point 1 to point 2, degrees clockwise from north, [0, 360). */
export function bearingDeg(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const y = Math.sin(rad(lon2 - lon1)) * Math.cos(rad(lat2));
  const x =
    Math.cos(rad(lat1)) * Math.sin(rad(lat2)) - Math.sin(rad(lat1)) * Math.cos(rad(lat2)) * Math.cos(rad(lon2 - lon1));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

/** Smallest signed difference b − a between two headings, degrees in (−180, 180]. */
export function headingDelta(a: number, b: number): number {
  let d = (b - a) % 360;
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return d;
}

const POINTS8 = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];

/** The 8-point compass direction of a bearing ("SE"). */
export function compass8(bearing: number): string {
  return POINTS8[Math.round((((bearing % 360) + 360) % 360) / 45) % 8];
}
