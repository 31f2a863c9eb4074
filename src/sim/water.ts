/**
 * Open water inside the jurisdiction outlines. US states and Canadian provinces extend to the middle
 * of the Great Lakes, and the Census outlines of the states take in their bays, sounds and lakes, so a
 * point there is "in" Ohio, Ontario or Maryland although no truck can drive there. These are coarse
 * cores of that water near the simulator's cities: the three Great Lakes they lie around (Michigan,
 * Erie, Ontario), each drawn 10–20 km inside the shore, and the large bays, sounds and lakes that legs
 * between cities would otherwise cross in a straight line, each drawn at least 1.5 km inside Natural
 * Earth's 1:10m shoreline (1 km in Puget Sound, narrower than that data's resolution) and clear of
 * the bridges and bridge-tunnels that carry roads over them (the Chesapeake Bay Bridge and
 * Bridge-Tunnel, the San Francisco–Oakland Bay, San Mateo and Richmond–San Rafael Bridges, the Lake
 * Pontchartrain Causeway and the I-10 Twin Span, the Tampa Bay bridges), so that no land, shore road
 * or bridge falls in them. [lat, lon] vertices in order around the water, our own approximate tracing.
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
  // The main stem between the Bay Bridge (39.0° N) and the Bridge-Tunnel at its mouth (37.0–37.2° N).
  'Chesapeake Bay': [
    [38.85, -76.45],
    [38.7, -76.47],
    [38.6, -76.45],
    [38.5, -76.43],
    [38.4, -76.35],
    [38.3, -76.33],
    [38.2, -76.28],
    [38.05, -76.27],
    [37.9, -76.2],
    [37.2, -76.2],
    [37.2, -76.04],
    [37.5, -76.03],
    [37.75, -76.1],
    [37.95, -76.12],
    [38.1, -76.14],
    [38.2, -76.16],
    [38.3, -76.25],
    [38.4, -76.31],
    [38.5, -76.37],
    [38.6, -76.33],
    [38.7, -76.4],
    [38.8, -76.39],
    [38.85, -76.41],
  ],
  // North of the Bay Bridge, up to the mouth of the Patapsco (Baltimore).
  'Chesapeake Bay, upper': [
    [39.05, -76.39],
    [39.2, -76.39],
    [39.29, -76.36],
    [39.29, -76.31],
    [39.2, -76.29],
    [39.05, -76.28],
  ],
  'Delaware Bay': [
    [39.26, -75.36],
    [39.15, -75.35],
    [39.05, -75.28],
    [38.95, -75.17],
    [38.88, -75.08],
    [38.95, -75.0],
    [39.05, -75.05],
    [39.12, -75.12],
    [39.17, -75.2],
    [39.26, -75.3],
  ],
  'Long Island Sound': [
    [40.985, -73.55],
    [41.01, -73.45],
    [41.08, -73.2],
    [41.15, -72.9],
    [41.2, -72.6],
    [41.2, -72.45],
    [41.12, -72.45],
    [41.08, -72.7],
    [41.02, -72.9],
    [40.99, -73.1],
    [40.98, -73.3],
    [40.965, -73.45],
    [40.965, -73.55],
  ],
  // The main basin, between Seattle and Bainbridge Island and up to Edmonds and Kingston.
  'Puget Sound': [
    [47.53, -122.46],
    [47.6, -122.46],
    [47.64, -122.475],
    [47.7, -122.47],
    [47.78, -122.45],
    [47.86, -122.44],
    [47.86, -122.42],
    [47.78, -122.435],
    [47.7, -122.45],
    [47.62, -122.445],
    [47.53, -122.44],
  ],
  // The US half of the strait, up to the international line and a little beyond it.
  'Strait of Juan de Fuca': [
    [48.19, -123.95],
    [48.28, -123.95],
    [48.27, -123.75],
    [48.26, -123.5],
    [48.26, -122.95],
    [48.23, -122.95],
    [48.22, -123.2],
    [48.2, -123.5],
  ],
  // Between the Bay Bridge and the San Mateo Bridge.
  'San Francisco Bay': [
    [37.77, -122.33],
    [37.7, -122.345],
    [37.64, -122.34],
    [37.635, -122.2],
    [37.68, -122.23],
    [37.72, -122.27],
    [37.75, -122.3],
  ],
  'Monterey Bay': [
    [36.93, -121.97],
    [36.9, -121.88],
    [36.8, -121.83],
    [36.68, -121.84],
    [36.67, -121.9],
    [36.8, -121.96],
  ],
  'San Pablo Bay': [
    [38.02, -122.44],
    [38.08, -122.44],
    [38.08, -122.32],
    [38.03, -122.32],
  ],
  // Between the Sunshine Skyway and the Gandy Bridge.
  'Tampa Bay': [
    [27.68, -82.6],
    [27.8, -82.57],
    [27.81, -82.47],
    [27.72, -82.52],
    [27.69, -82.56],
  ],
  // West and east of the Causeway; the east part stops short of the I-10 Twin Span.
  'Lake Pontchartrain, west': [
    [30.08, -90.32],
    [30.2, -90.38],
    [30.3, -90.27],
    [30.31, -90.15],
    [30.08, -90.19],
  ],
  'Lake Pontchartrain, east': [
    [30.08, -90.11],
    [30.27, -90.07],
    [30.22, -89.93],
    [30.17, -89.9],
    [30.1, -90.0],
  ],
};

/** The cores as polygons of the geofence geometry, with their bounding boxes (the cheap test first). */
const CORE_SHAPES = Object.entries(CORES).map(([name, ring]) => {
  const shape: GeofenceShape = { shape: 'polygon', points: ring.map(([lat, lon]) => ({ lat, lon })) };
  return { name, shape, bounds: boundsOf(shape) };
});

/** The name of the core of open water containing the point ("Lake Erie", "Chesapeake Bay"), or null. */
export function waterCoreAt(lat: number, lon: number): string | null {
  const p: LatLon = { lat, lon };
  return CORE_SHAPES.find((l) => inBounds(l.bounds, p) && contains(l.shape, p))?.name ?? null;
}

/** Whether the point lies in a core of open water (a Great Lake, a bay, a sound). */
export function inLakeCore(lat: number, lon: number): boolean {
  return waterCoreAt(lat, lon) !== null;
}
