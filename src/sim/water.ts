/**
 * Open water inside the jurisdiction outlines. US states and Canadian provinces extend to the middle
 * of the Great Lakes, so a point there is "in" Ohio or Ontario although no truck can drive there.
 * These are coarse cores of the three lakes that the simulator's cities lie around (Michigan, Erie,
 * Ontario), each drawn 10–20 km inside the shore so that no land, and no shore road, falls in them;
 * [lat, lon] vertices in order around the lake, our own approximate tracing of the shorelines.
 */
import { boundsOf, contains, inBounds, type GeofenceShape, type LatLon } from '../domain/geofences/geometry.js';

const CORES: Record<string, Array<[number, number]>> = {
  'Lake Michigan': [
    [42.0, -87.45],
    [43.0, -87.7],
    [44.0, -87.45],
    [44.7, -87.0],
    [44.7, -86.45],
    [44.0, -86.65],
    [43.0, -86.45],
    [42.2, -86.7],
    [42.0, -87.0],
  ],
  'Lake Erie': [
    [41.95, -82.45],
    [41.65, -82.3],
    [41.65, -81.7],
    [41.95, -81.0],
    [42.25, -80.1],
    [42.6, -79.4],
    [42.75, -79.6],
    [42.4, -80.3],
    [42.5, -81.2],
    [42.2, -82.0],
  ],
  'Lake Ontario': [
    [43.4, -79.5],
    [43.35, -78.5],
    [43.35, -77.6],
    [43.5, -76.8],
    [43.7, -76.6],
    [43.75, -77.4],
    [43.8, -78.2],
    [43.7, -78.9],
    [43.55, -79.4],
  ],
};

/** The cores as polygons of the geofence geometry, with their bounding boxes (the cheap test first). */
const LAKES = Object.values(CORES).map((ring) => {
  const shape: GeofenceShape = { shape: 'polygon', points: ring.map(([lat, lon]) => ({ lat, lon })) };
  return { shape, bounds: boundsOf(shape) };
});

export function inLakeCore(lat: number, lon: number): boolean {
  const p: LatLon = { lat, lon };
  return LAKES.some((l) => inBounds(l.bounds, p) && contains(l.shape, p));
}
