/**
 * Tracks along border roads for the accuracy test (test/domain/ifta/border-accuracy.test.ts) and benchmark
 * (bench/ifta-accuracy.ts): a road tens of metres inside a straight state line, one along a river
 * border, Interstate 95 through several small states (twice), a bridge into Canada, a round trip into
 * Mexico and a road along the Rio Grande. Waypoints are [lat, lon]; the offset tracks were drawn from the reference outlines (test/domain/ifta/reference.ts) at a
 * fixed distance inside the state. A vehicle drives each at 90 km/h with a fix every 10 seconds and an
 * exact odometer (`borderTrack`). `expectedKm` is the distance per jurisdiction along the polyline of
 * those fixes — what the allocator sees — measured on the reference outlines (`referenceKm`; what lies
 * outside every US state counted under `outside`), each step's odometer distance shared out in
 * proportion (a step across a corner is shorter in straight line than on the road); the test
 * recomputes it when the reference is present.
 * docs/ifta.md, "Accuracy".
 */
import { along, type Built, type LatLon } from './tracks.js';
import { referenceKm } from './reference.js';

export interface BorderTrack {
  name: string;
  waypoints: LatLon[];
  /** The jurisdiction of what lies outside every reference US state ('--': none expected). */
  outside: string;
  expectedKm: Record<string, number>;
}

/** The Kansas–Missouri line in Kansas City (94.608° W), 40 m inside Kansas, entered from and left into Missouri. */
const STATE_LINE_ROAD: LatLon[] = [
  [39.099, -94.58],
  [39.100676, -94.607595],
  [39.03403, -94.607939],
  [38.987624, -94.608456],
  [38.979299, -94.608919],
  [38.963704, -94.608557],
  [38.938301, -94.608701],
  [38.937401, -94.608336],
  [38.847206, -94.608494],
  [38.827561, -94.608086],
  [38.811104, -94.608633],
  [38.8111, -94.56],
];

/** The Delaware from Trenton to Frenchtown, 150 m inside New Jersey (the river is the New Jersey–Pennsylvania line). */
const DELAWARE_NJ: LatLon[] = [
  [40.208219, -74.76527],
  [40.21578, -74.769282],
  [40.222585, -74.780132],
  [40.230551, -74.794347],
  [40.234627, -74.804431],
  [40.239702, -74.818631],
  [40.242684, -74.822995],
  [40.247365, -74.835349],
  [40.251206, -74.840742],
  [40.262247, -74.846386],
  [40.270229, -74.851474],
  [40.277891, -74.854856],
  [40.285196, -74.858913],
  [40.296015, -74.866775],
  [40.306548, -74.879334],
  [40.311328, -74.885943],
  [40.314136, -74.89062],
  [40.31644, -74.895906],
  [40.316947, -74.902966],
  [40.318073, -74.907356],
  [40.323426, -74.916241],
  [40.330422, -74.925634],
  [40.334132, -74.93195],
  [40.338912, -74.938383],
  [40.342139, -74.941263],
  [40.345412, -74.942802],
  [40.348891, -74.943589],
  [40.352181, -74.94358],
  [40.355297, -74.944083],
  [40.360521, -74.945399],
  [40.365487, -74.947223],
  [40.380537, -74.954142],
  [40.389455, -74.959838],
  [40.395737, -74.962325],
  [40.39906, -74.9652],
  [40.400637, -74.967997],
  [40.403264, -74.976614],
  [40.405685, -74.98205],
  [40.409588, -74.987321],
  [40.410877, -74.991077],
  [40.411742, -74.995606],
  [40.411642, -74.998448],
  [40.410946, -75.000926],
  [40.408863, -75.004716],
  [40.408929, -75.0079],
  [40.405002, -75.02353],
  [40.40485, -75.025597],
  [40.405277, -75.028144],
  [40.406047, -75.031019],
  [40.407092, -75.033191],
  [40.408525, -75.034357],
  [40.41206, -75.041189],
  [40.414717, -75.044339],
  [40.415629, -75.046714],
  [40.417338, -75.054194],
  [40.41844, -75.05655],
  [40.418874, -75.057029],
  [40.422267, -75.05928],
  [40.424274, -75.060067],
  [40.43025, -75.060527],
  [40.433643, -75.061374],
  [40.436627, -75.062599],
  [40.438385, -75.062387],
  [40.442096, -75.063827],
  [40.445448, -75.064187],
  [40.447614, -75.064834],
  [40.452645, -75.067347],
  [40.456995, -75.068886],
  [40.458313, -75.068599],
  [40.461672, -75.066512],
  [40.46529, -75.065209],
  [40.471465, -75.066237],
  [40.473053, -75.066053],
  [40.475795, -75.063241],
  [40.480185, -75.060882],
  [40.484439, -75.061087],
  [40.494104, -75.060801],
  [40.499975, -75.061548],
  [40.503675, -75.063063],
  [40.508951, -75.063043],
  [40.521748, -75.063915],
];

/** Interstate 95 from the Bronx through Connecticut and Rhode Island into Massachusetts (approximate). */
const I95_NEW_ENGLAND: LatLon[] = [
  [40.848, -73.83],
  [40.895, -73.8],
  [40.915, -73.775],
  [40.935, -73.745],
  [40.95, -73.725],
  [40.975, -73.69],
  [40.995, -73.67],
  [41.003, -73.659],
  [41.027, -73.62],
  [41.035, -73.59],
  [41.046, -73.545],
  [41.071, -73.47],
  [41.103, -73.42],
  [41.131, -73.33],
  [41.147, -73.265],
  [41.178, -73.19],
  [41.195, -73.13],
  [41.222, -73.06],
  [41.27, -72.96],
  [41.298, -72.92],
  [41.286, -72.86],
  [41.285, -72.8],
  [41.29, -72.69],
  [41.29, -72.6],
  [41.285, -72.53],
  [41.29, -72.45],
  [41.3, -72.38],
  [41.32, -72.33],
  [41.36, -72.22],
  [41.36, -72.14],
  [41.365, -72.095],
  [41.355, -72.05],
  [41.37, -71.96],
  [41.43, -71.87],
  [41.46, -71.78],
  [41.5, -71.69],
  [41.56, -71.62],
  [41.68, -71.51],
  [41.72, -71.47],
  [41.77, -71.44],
  [41.82, -71.415],
  [41.875, -71.385],
  [41.95, -71.32],
];

/** Interstate 95 from Philadelphia through Delaware (across the 12-mile arc) into Maryland (approximate). */
const I95_DELAWARE: LatLon[] = [
  [39.875, -75.25],
  [39.845, -75.36],
  [39.825, -75.42],
  [39.815, -75.44],
  [39.8, -75.46],
  [39.755, -75.53],
  [39.72, -75.57],
  [39.66, -75.7],
  [39.645, -75.77],
  [39.62, -75.83],
  [39.595, -75.94],
];

/** Detroit over the Ambassador Bridge into Windsor, then Huron Church Road and Highway 401 (approximate). */
const AMBASSADOR_BRIDGE: LatLon[] = [
  [42.365, -83.145],
  [42.34, -83.105],
  [42.323, -83.088],
  [42.315, -83.08],
  [42.306, -83.068],
  [42.29, -83.055],
  [42.27, -83.04],
  [42.248, -83.025],
  [42.235, -83.015],
  [42.22, -82.97],
  [42.205, -82.91],
];

/**
 * Downtown El Paso over the Paso del Norte bridge into Ciudad Juárez, south through the city and back
 * over the Bridge of the Americas (approximate): the Mexican miles are Mexico's, not Texas's.
 */
const EL_PASO_JUAREZ: LatLon[] = [
  [31.7587, -106.4869],
  [31.753, -106.4876],
  [31.744, -106.487],
  [31.7386, -106.4869],
  [31.72, -106.45],
  [31.69, -106.42],
  [31.72, -106.43],
  [31.745, -106.445],
  [31.764, -106.4525],
  [31.775, -106.445],
  [31.78, -106.44],
];

/** Along the Rio Grande (the Texas–Mexico line) from Ysleta to downtown El Paso, 150 m inside Texas. */
const RIO_GRANDE_TX: LatLon[] = [
  [31.603952, -106.295177],
  [31.610021, -106.299378],
  [31.613662, -106.299107],
  [31.619119, -106.301338],
  [31.622848, -106.30205],
  [31.630217, -106.30659],
  [31.650369, -106.322957],
  [31.659134, -106.328459],
  [31.664296, -106.333112],
  [31.697452, -106.34824],
  [31.711385, -106.368768],
  [31.715656, -106.372769],
  [31.729006, -106.376682],
  [31.732165, -106.379034],
  [31.737008, -106.386917],
  [31.740386, -106.39386],
  [31.748156, -106.407303],
  [31.750005, -106.411365],
  [31.752123, -106.415025],
  [31.754156, -106.421184],
  [31.75533, -106.430939],
  [31.756517, -106.435091],
  [31.763927, -106.447169],
  [31.765753, -106.451119],
  [31.765482, -106.455442],
  [31.761217, -106.466842],
  [31.757559, -106.470578],
  [31.752191, -106.472924],
  [31.74916, -106.484714],
  [31.750245, -106.49021],
  [31.752941, -106.493819],
  [31.756565, -106.499073],
  [31.759264, -106.502555],
];

export const BORDER_TRACKS: BorderTrack[] = [
  {
    name: 'State Line Road, 40 m inside Kansas',
    waypoints: STATE_LINE_ROAD,
    outside: '--',
    expectedKm: { MO: 6.6532, KS: 32.1192 },
  },
  {
    name: 'Delaware River, 150 m inside New Jersey',
    waypoints: DELAWARE_NJ,
    outside: '--',
    expectedKm: { NJ: 49.3338 },
  },
  {
    name: 'I-95 New York to Massachusetts',
    waypoints: I95_NEW_ENGLAND,
    outside: '--',
    expectedKm: { NY: 22.704, CT: 170.3244, RI: 62.0876, MA: 7.245 },
  },
  // The reference leaves a 1 m sliver between Delaware and Maryland where this track crosses (39.6376° N).
  {
    name: 'I-95 Pennsylvania to Maryland',
    waypoints: I95_DELAWARE,
    outside: '--',
    expectedKm: { PA: 17.6261, DE: 36.3179, MD: 13.974, '--': 0.001 },
  },
  {
    name: 'Ambassador Bridge, Detroit to Windsor',
    waypoints: AMBASSADOR_BRIDGE,
    outside: 'ON',
    expectedKm: { MI: 8.4566, ON: 19.0372 },
  },
  {
    name: 'El Paso to Ciudad Juárez and back',
    waypoints: EL_PASO_JUAREZ,
    outside: 'MX',
    expectedKm: { TX: 3.2882, MX: 18.3202 },
  },
  {
    name: 'Rio Grande, 150 m inside Texas',
    waypoints: RIO_GRANDE_TX,
    outside: 'MX',
    expectedKm: { TX: 30.5772 },
  },
];

export const TRACK_T0 = Date.parse('2024-05-06T12:00:00Z');

/** The fixes of a border track: every 10 s at 90 km/h, with an exact odometer. */
export const borderTrack = (bt: BorderTrack, t0 = TRACK_T0): Built => along(bt.waypoints, { t0, kph: 90, everyS: 10 });

/**
 * The expected km per jurisdiction of a border track, computed on the reference outlines (needs them):
 * each 10-second step's odometer distance shared out along its straight line between the fixes in
 * proportion to the reference pieces, as the allocator shares it (docs/ifta.md, "The allocator").
 */
export function referenceExpectedKm(bt: BorderTrack): Record<string, number> {
  const { track } = borderTrack(bt);
  const out: Record<string, number> = {};
  for (let i = 0; i + 1 < track.n; i++) {
    const pieces = referenceKm(
      [
        [track.lat[i], track.lon[i]],
        [track.lat[i + 1], track.lon[i + 1]],
      ],
      bt.outside,
    );
    const chord = Object.values(pieces).reduce((a, b) => a + b, 0);
    for (const [code, km] of Object.entries(pieces))
      out[code] = (out[code] ?? 0) + (km / chord) * (track.odo[i + 1] - track.odo[i]);
  }
  return out;
}
