/**
 * A server has the geography indexes (IFTA jurisdiction grid, place names) built on a worker thread
 * while it loads (src/telemetry/geocode/warm.ts): what the worker hands over must be exactly what this
 * thread would have built, and the worker must run from the sources through tsx and from a build.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD, ROOT } from '../cli-process.js';
import { REPO } from '../repo.js';
import { warmGeography } from '../../src/telemetry/geocode/warm.js';
import { GRID_CELL_DEG, jurisdictionAt, jurisdictionIndex, loadShapes } from '../../src/domain/ifta/boundaries.js';
import { JurisdictionIndex } from '../../src/domain/ifta/grid-index.js';
import { buildPlaces, describe as describePoint } from '../../src/telemetry/geocode/places.js';

const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe('geography built on a worker thread', () => {
  it('installs the same grid and place list this thread builds', async () => {
    assert.equal(await warmGeography(), 'worker');
    const installed = jurisdictionIndex().grid;
    const here = new JurisdictionIndex(loadShapes(), GRID_CELL_DEG).grid;
    for (const key of ['codes', 'cellDeg', 'x0', 'y0', 'nx', 'ny'] as const)
      assert.deepEqual(installed[key], here[key], key);
    for (const key of ['cells', 'slotStart', 'slotEdges', 'ax', 'ay', 'bx', 'by', 'owner'] as const)
      assert.ok(bytes(installed[key]).equals(bytes(here[key])), `${key} differs`);
    assert.equal(jurisdictionAt(38.8977, -77.0365), 'DC');
    assert.equal(jurisdictionAt(39.0997, -94.5786), 'MO');
    assert.equal(jurisdictionAt(39.1141, -94.6275), 'KS');
    // The place list: the first use after the worker's list was installed describes from it.
    assert.equal(describePoint(32.2687, -107.7586), 'Deming, NM');
    assert.ok(buildPlaces().places.length > 1000);
  });

  // The tests themselves may run either way (scripts/test.mjs compiles them); each of the two is run here.
  const inProcess = (dir: string, ext: string, flags: string[]) => {
    const at = (file: string) => JSON.stringify(pathToFileURL(join(dir, `${file}${ext}`)).href);
    const script = [
      `const { warmGeography } = await import(${at('telemetry/geocode/warm')});`,
      `const { jurisdictionAt } = await import(${at('domain/ifta/boundaries')});`,
      `const { describe } = await import(${at('telemetry/geocode/places')});`,
      'const where = await warmGeography();',
      'console.log(JSON.stringify({ where, at: jurisdictionAt(38.8977, -77.0365), place: describe(32.2687, -107.7586) }));',
    ].join('\n');
    const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { where: 'worker', at: 'DC', place: 'Deming, NM' });
  };

  it('runs from a compiled build', () => inProcess(BUILD, '.js', []));

  it('runs from the sources through tsx', () => inProcess(join(REPO, 'src'), '.ts', ['--import', 'tsx']));
});
