/**
 * A J1939 DM1 reporting SPN 0 / FMI 0 means "no active DTCs" (docs/reference/domain-rules.md §5.1): through the device
 * API it closes the open J1939 faults of that source address, not those of another ECU or an OBD-II
 * code, and opens no fault of its own.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import { assertList } from '../http/fixtures.js';
import { at, engine, useRigApp, send, settle, track, type Rig } from './fixtures.js';

eachDialect('a DM1 with no active DTCs', (dialect) => {
  const setup = useRigApp(dialect);
  let t: TestApp;
  let v: Rig;
  before(async () => ({ t, v } = await setup()));

  test('closes the faults of its source address only, as no longer observed (not cleared)', async () => {
    const dtc = (s: number, sa: number, spn: number, fmi: number) => ({
      type: 'fault',
      time: at(s),
      protocol: 'j1939',
      spn,
      fmi,
      source_address: sa,
    });
    const res = await send(t, v, [
      engine(0, 'on'),
      ...track({ fromS: 5, toS: 100, kph: 0 }),
      dtc(10, 0, 110, 0),
      dtc(11, 3, 524, 2),
      { type: 'fault', time: at(12), protocol: 'obd2', code: 'P0420' },
      dtc(60, 0, 0, 0),
      ...track({ fromS: 105, toS: 120, kph: 0 }),
    ]);
    assert.equal(res.rejected, 0, JSON.stringify(res.results));
    await settle(t);
    const faults = assertList(
      await t.call({ method: 'GET', url: `/v1/fault_codes?vehicle_ids=${v.vehicle.id}&per_page=100` }),
      'fault_codes',
      'fault_code',
    );
    const byCode = Object.fromEntries(faults.map((f: any) => [f.code, f]));
    assert.deepEqual(Object.keys(byCode).sort(), ['110', '524', 'P0420'], 'SPN 0 / FMI 0 opened nothing');
    assert.equal(byCode['110'].status, 'closed');
    const row = await t.db.kysely
      .selectFrom('fault_codes')
      .select(['closed_at', 'cleared'])
      .where('id', '=', byCode['110'].id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.closed_at, Number(row.cleared)], [at(60), 0], 'closed at the DM1, as no longer observed');
    assert.equal(byCode['524'].status, 'open', 'another source address is not affected');
    assert.equal(byCode.P0420.status, 'open');
  });
});
