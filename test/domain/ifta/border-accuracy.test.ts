/**
 * Accuracy on border roads (docs/ifta.md, "Accuracy"): State Line Road 40 m inside Kansas, the Delaware
 * 150 m inside New Jersey, I-95 through New York, Connecticut, Rhode Island and Massachusetts and through
 * Pennsylvania, Delaware and Maryland, and the Ambassador Bridge into Ontario. Every jurisdiction of
 * every track (each over 10 miles) within 0.5 % of the distance measured on the reference outlines,
 * through the allocator and through the API on both databases.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { allocate, DEFAULT_RULES } from '../../../src/domain/ifta/allocate.js';
import { jurisdictionIndex } from '../../../src/domain/ifta/boundaries.js';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { BORDER_TRACKS, borderTrack, referenceExpectedKm, TRACK_T0 } from './border-tracks.js';
import { get, mi, store, unit } from './http-fixtures.js';
import { REFERENCE_DIR, referenceAvailable } from './reference.js';
import { byCode, odoSpan, sum, within } from './tracks.js';

const TEN_MILES_KM = 16.09344;
const idx = jurisdictionIndex();

/** The jurisdictions that matter on a track: more than 100 m of it (not the reference's 1 m sliver). */
const counted = (expected: Record<string, number>) => Object.entries(expected).filter(([, km]) => km > 0.1);

for (const bt of BORDER_TRACKS) {
  test(`${bt.name}: every jurisdiction within 0.5 % of the reference outlines`, () => {
    const { track } = borderTrack(bt);
    assert.ok(odoSpan(track) >= TEN_MILES_KM, `${odoSpan(track)} km`);
    const r = allocate(track, idx, DEFAULT_RULES);
    const got = byCode(r.fragments, idx.codes);
    for (const [code, km] of counted(bt.expectedKm))
      assert.ok(within(got[code], km), `${code}: ${got[code]} km, expected ${km} km`);
    assert.deepEqual(
      Object.keys(got)
        .filter((c) => c !== '--')
        .sort(),
      counted(bt.expectedKm)
        .map(([c]) => c)
        .sort(),
    );
    assert.ok((got['--'] ?? 0) < 0.01, `unplaced ${got['--']} km`);
    assert.ok(Math.abs(sum(r.fragments) - odoSpan(track)) < 1e-6);
  });
}

test(`the expected distances are those of the reference outlines (${REFERENCE_DIR} when present)`, (t) => {
  for (const bt of BORDER_TRACKS) {
    const total = Object.values(bt.expectedKm).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(total - odoSpan(borderTrack(bt).track)) < 0.001, `${bt.name}: ${total}`);
  }
  if (!referenceAvailable()) {
    t.diagnostic('reference outlines not found: the checked-in expected distances were checked for their sum only');
    return;
  }
  for (const bt of BORDER_TRACKS) {
    const ref = referenceExpectedKm(bt);
    assert.deepEqual(Object.keys(ref).sort(), Object.keys(bt.expectedKm).sort(), bt.name);
    for (const [code, km] of Object.entries(ref))
      assert.ok(Math.abs(km - bt.expectedKm[code]) < 0.0005, `${bt.name} ${code}: ${km}`);
  }
});

eachDialect('ifta accuracy through the API', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  const picked = [BORDER_TRACKS[0], BORDER_TRACKS[4]];
  const ids: number[] = [];

  before(async () => {
    t = await getApp();
    for (const bt of picked) {
      const u = await unit(t);
      ids.push(u.vehicle.id);
      await store(t, u, borderTrack(bt, TRACK_T0).track);
    }
  });

  test('State Line Road and the Ambassador Bridge: the summary within 0.5 % per jurisdiction', async () => {
    const body = await get(
      t,
      `/v1/ifta/summary?start_date=2024-05-06&end_date=2024-05-06&vehicle_ids=${ids.join(',')}`,
      { 'X-Time-Zone': 'UTC' },
    );
    const rows = body.ifta_trips.map((w: any) => w.ifta_trip);
    picked.forEach((bt, i) => {
      const mine = rows.filter((r: any) => r.vehicle.id === ids[i]);
      assert.deepEqual(
        mine.map((r: any) => r.jurisdiction).sort(),
        counted(bt.expectedKm)
          .map(([c]) => c)
          .sort(),
        bt.name,
      );
      for (const r of mine) {
        const want = mi(bt.expectedKm[r.jurisdiction]);
        assert.ok(
          within(r.distance, want),
          `${bt.name} ${r.jurisdiction}: ${r.distance} mi, expected ${want.toFixed(3)} mi`,
        );
      }
    });
  });
});
