/**
 * IFTA accuracy on border roads: the tracks of test/domain/ifta/border-tracks.ts (State Line Road 40 m inside
 * Kansas, the Delaware 150 m inside New Jersey, I-95 through NY–CT–RI–MA and PA–DE–MD, the Ambassador
 * Bridge) through the allocator on the shipped boundary data, against the distance per jurisdiction
 * measured on the reference outlines (../shared/data/us-states-500k next to the repository, or
 * IFTA_REFERENCE_DIR; without them, the expected numbers checked in with the tracks). Target: every
 * jurisdiction of every track of 10 miles or more within 0.5 %. docs/ifta.md, "Accuracy".
 *
 *   npx tsx bench/ifta-accuracy.ts
 *
 * Prints a table in miles (and the same as Markdown) and writes bench/results/ifta-accuracy.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { allocate, DEFAULT_RULES } from '../src/domain/ifta/allocate.js';
import { jurisdictionIndex } from '../src/domain/ifta/boundaries.js';
import { kmToMi } from '../src/telemetry/units.js';
import { BORDER_TRACKS, borderTrack, referenceExpectedKm } from '../test/domain/ifta/border-tracks.js';
import { REFERENCE_DIR, referenceAvailable } from '../test/domain/ifta/reference.js';
import { byCode, odoSpan } from '../test/domain/ifta/tracks.js';

const TARGET = 0.005;

interface Row {
  track: string;
  miles: number;
  jurisdiction: string;
  expected_mi: number;
  got_mi: number;
  error_pct: number;
}

function main(): void {
  const fromReference = referenceAvailable();
  const index = jurisdictionIndex();
  const rows: Row[] = [];
  for (const bt of BORDER_TRACKS) {
    const { track } = borderTrack(bt);
    const expected = fromReference ? referenceExpectedKm(bt) : bt.expectedKm;
    const got = byCode(allocate(track, index, DEFAULT_RULES).fragments, index.codes);
    for (const code of [...new Set([...Object.keys(expected), ...Object.keys(got)])]) {
      const want = expected[code] ?? 0;
      if (want < 0.1 && (got[code] ?? 0) < 0.1) continue; // the reference's 1 m sliver (border-tracks.ts)
      rows.push({
        track: bt.name,
        miles: kmToMi(odoSpan(track)),
        jurisdiction: code,
        expected_mi: kmToMi(want),
        got_mi: kmToMi(got[code] ?? 0),
        error_pct: want > 0 ? (100 * ((got[code] ?? 0) - want)) / want : Infinity,
      });
    }
  }
  const worst = Math.max(...rows.map((r) => Math.abs(r.error_pct)));
  const pass = rows.every((r) => r.miles < 10 || Math.abs(r.error_pct) <= 100 * TARGET);
  const f = (n: number, d = 2) => n.toFixed(d);
  console.log(
    `expected from ${fromReference ? `the reference outlines (${REFERENCE_DIR})` : 'the numbers checked in with the tracks (reference not found)'}`,
  );
  console.log('| track | miles | jurisdiction | expected mi | allocated mi | error |');
  console.log('|---|---:|---|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.track} | ${f(r.miles, 1)} | ${r.jurisdiction} | ${f(r.expected_mi, 3)} | ${f(r.got_mi, 3)} | ${r.error_pct >= 0 ? '+' : ''}${f(r.error_pct, 3)} % |`,
    );
  console.log(
    `worst error ${f(worst, 3)} % — ${pass ? 'PASS' : 'FAIL'} (target ≤ ${100 * TARGET} % per jurisdiction on every track of 10 miles or more)`,
  );
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  const out = {
    scenario: 'ifta-accuracy',
    expected_from: fromReference ? 'reference' : 'checked-in',
    rows,
    worst_error_pct: worst,
    pass,
    at: new Date().toISOString(),
  };
  writeFileSync(new URL('./results/ifta-accuracy.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
  if (!pass) process.exitCode = 1;
}

main();
