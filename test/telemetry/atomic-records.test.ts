/**
 * Each device record lands whole or not at all, alike on both databases: text PostgreSQL refuses (a NUL,
 * a lone surrogate) and integer references past its `integer` are that record's rejection, naming the
 * field, before anything is written; an inspection report or form entry is stored in the transaction of
 * its record, so a record the database still refuses leaves no report, entry, log or event behind and
 * the rest of the batch is stored. Re-sending such a batch answers the same and changes nothing.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { createForm } from '../../src/domain/dispatch/forms.js';
import { REFUSED } from '../../src/telemetry/store/batch.js';
import { at, post, rig, type Rig } from './fixtures.js';

const NUL = 'must not contain a NUL character (\\u0000)';
const SURROGATE = 'must not contain a lone UTF-16 surrogate (half of a surrogate pair)';

const ok = (index: number, seq: number) => ({ index, seq, status: 'accepted' });
const dup = (index: number, seq: number) => ({ index, seq, status: 'duplicate' });
const no = (index: number, seq: number | null, error_message: string) => ({
  index,
  seq,
  status: 'rejected',
  error_message,
});
const answer = (results: Array<{ status: string; late?: boolean }>) => ({
  accepted: results.filter((r) => r.status === 'accepted').length,
  duplicates: results.filter((r) => r.status === 'duplicate').length,
  rejected: results.filter((r) => r.status === 'rejected').length,
  results,
});

eachDialect('device ingestion: each record lands whole or not at all', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let formId: string;
  before(async () => {
    t = await getApp();
    formId = (
      await createForm(
        t.db,
        { companyId: t.company.id },
        { name: `Delivery ${dialect}`, fields: [{ name: 'remarks', label: 'Remarks', type: 'text', required: false }] },
      )
    ).id;
  });

  const fix = (seq: number, s: number, extra: Record<string, unknown> = {}) => ({
    seq,
    type: 'location',
    time: at(s),
    lat: 39.8,
    lon: -89.6,
    speed_kph: 0,
    ...extra,
  });
  const inspection = (v: Rig, seq: number, fields: Record<string, unknown>) => ({
    seq,
    type: 'inspection',
    time: at(20),
    driver_id: v.driver.id,
    inspection_type: 'pre_trip',
    defects: [{ area: 'Brakes', category: 'Air leak' }],
    ...fields,
  });
  const formEntry = (v: Rig, seq: number, fields: Record<string, unknown>) => ({
    seq,
    type: 'form_entry',
    time: at(30),
    driver_id: v.driver.id,
    form_id: formId,
    ...fields,
  });

  const rows = async (
    table: 'inspection_reports' | 'inspection_defects' | 'form_entries' | 'hos_logs' | 'domain_events',
  ) =>
    Number(
      (
        await t.db.kysely
          .selectFrom(table)
          .select(sql<number>`count(*)`.as('n'))
          .where('company_id', '=', t.company.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** What the device's batches left: its records, and the rows inspections and form entries create. */
  const footprint = async (v: Rig) => ({
    seqs: (
      await t.db.kysely
        .selectFrom('telemetry_records')
        .select('seq')
        .where('device_id', '=', v.device.id)
        .orderBy('seq')
        .execute()
    ).map((x) => Number(x.seq)),
    reports: await rows('inspection_reports'),
    defects: await rows('inspection_defects'),
    entries: await rows('form_entries'),
    logs: await rows('hos_logs'),
    events: Number(
      (
        await t.db.kysely
          .selectFrom('domain_events')
          .select(sql<number>`count(*)`.as('n'))
          .where('company_id', '=', t.company.id)
          .where('subject_type', 'in', ['inspection_report', 'form_entry'])
          .executeTakeFirstOrThrow()
      ).n,
    ),
    allEvents: await rows('domain_events'),
  });

  /** Posts a batch twice: the first answer is `first`, the re-send answers `again`; returns what each left. */
  async function twice(v: Rig, records: unknown[], first: ReturnType<typeof answer>, again: ReturnType<typeof answer>) {
    const res = await post(t, v.device.device_token, { records });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, first);
    const after = await footprint(v);
    const resent = await post(t, v.device.device_token, { records });
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    assert.deepEqual(resent.body, again);
    assert.deepEqual(await footprint(v), after, 'the re-send changed nothing');
    return after;
  }

  test('an inspection with a lone surrogate in its notes is rejected naming the field; the good record lands; no report, log or event is left', async () => {
    const v = await rig(t);
    const before = await footprint(v);
    const after = await twice(
      v,
      [fix(1, 0), inspection(v, 2, { notes: 'left lamp \uD800 out' })],
      answer([ok(0, 1), no(1, 2, `notes ${SURROGATE}`)]),
      answer([dup(0, 1), no(1, 2, `notes ${SURROGATE}`)]),
    );
    assert.deepEqual({ ...after, allEvents: 0 }, { ...before, seqs: [1], allEvents: 0 });
  });

  test("a NUL anywhere in a record — defect notes, form answers, a key, a duty status note, an unknown field — is that record's rejection", async () => {
    const v = await rig(t);
    const before = await footprint(v);
    const records = [
      inspection(v, 1, { defects: [{ area: 'Brakes', category: 'Air leak', notes: 'hiss\u0000' }] }),
      formEntry(v, 2, { entry: { remarks: 'signed\u0000' } }),
      formEntry(v, 3, { entry: { 'rem\u0000arks': 'ok' } }),
      formEntry(v, 4, { entry: { remarks: ['ok', '\uDC00'] } }),
      { seq: 5, type: 'duty_status', time: at(40), driver_id: v.driver.id, status: 'on_duty', note: 'pre\u0000trip' },
      fix(6, 50, { comment: '\u0000' }),
      { ...fix(7, 60), ['x\u0000']: 1 },
      fix(8, 70),
      formEntry(v, 9, { entry: { remarks: 'all good' } }),
    ];
    const rejections = [
      no(0, 1, `defects[0].notes ${NUL}`),
      no(1, 2, `entry.remarks ${NUL}`),
      no(2, 3, `a key of entry ${NUL}`),
      no(3, 4, `entry.remarks[1] ${SURROGATE}`),
      no(4, 5, `note ${NUL}`),
      no(5, 6, `comment ${NUL}`),
      no(6, 7, `a key of the record ${NUL}`),
    ];
    const after = await twice(
      v,
      records,
      answer([...rejections, ok(7, 8), ok(8, 9)]),
      answer([...rejections, dup(7, 8), dup(8, 9)]),
    );
    assert.deepEqual(after.seqs, [8, 9]);
    assert.deepEqual([after.reports, after.defects, after.logs], [before.reports, before.defects, before.logs]);
    assert.deepEqual(
      [after.entries, after.events],
      [before.entries + 1, before.events + 1],
      'only the good form entry and its event',
    );
  });

  test("integer references past PostgreSQL's integer are rejected naming the field, and seq past its own limit", async () => {
    const v = await rig(t);
    const before = await footprint(v);
    const big = 2 ** 31;
    const records = [
      inspection(v, 1, { driver_id: big }),
      inspection(v, 2, { log_id: big }),
      formEntry(v, 3, { driver_id: big }),
      formEntry(v, 4, { dispatch_id: big }),
      { seq: 6, type: 'driver', time: at(5), action: 'login', driver_id: big },
      fix(2 ** 53, 10),
    ];
    const rejections = [
      no(0, 1, 'driver_id must be between 1 and 2147483647, got 2147483648'),
      no(1, 2, 'log_id must be at most 2147483647'),
      no(2, 3, 'driver_id must be between 1 and 2147483647, got 2147483648'),
      no(3, 4, 'dispatch_id must be at most 2147483647'),
      no(4, 6, 'driver_id must be between 1 and 2147483647, got 2147483648'),
      no(5, null, 'seq must be a whole number from 0 to 9007199254740991'),
    ];
    const after = await twice(v, records, answer(rejections), answer(rejections));
    assert.deepEqual(after, before);
  });

  test('a record the database itself refuses is rejected alone: its report, log and event are rolled back with it, the others are stored', async () => {
    const v = await rig(t);
    // A refusal the checks cannot foresee: a trigger turning down this device's records whose seq ends in 66.
    const when = `new.device_id = ${v.device.id} and new.seq % 100 = 66`;
    if (dialect === 'sqlite') {
      await sql
        .raw(
          `create trigger refuse_66 before insert on telemetry_records when ${when} begin select raise(abort, 'refused'); end`,
        )
        .execute(t.db.kysely);
    } else {
      await sql
        .raw(
          `create function refuse_66() returns trigger language plpgsql as $$ begin if ${when} then raise exception 'refused' using errcode = 'check_violation'; end if; return new; end $$`,
        )
        .execute(t.db.kysely);
      await sql
        .raw('create trigger refuse_66 before insert on telemetry_records for each row execute function refuse_66()')
        .execute(t.db.kysely);
    }
    const before = await footprint(v);
    const mixed = [fix(65, 0), inspection(v, 66, {}), formEntry(v, 166, { entry: { remarks: 'x' } }), fix(67, 10)];
    let after = await twice(
      v,
      mixed,
      answer([ok(0, 65), no(1, 66, REFUSED), no(2, 166, REFUSED), ok(3, 67)]),
      answer([dup(0, 65), no(1, 66, REFUSED), no(2, 166, REFUSED), dup(3, 67)]),
    );
    assert.deepEqual({ ...after, allEvents: 0 }, { ...before, seqs: [65, 67], allEvents: 0 });
    // Past 50 records SQLite stores them 50 to a statement: the one refused row fails its statement, and
    // the batch is stored record by record instead.
    const many = Array.from({ length: 60 }, (_, i) => fix(1030 + i, 20 + i));
    after = await twice(
      v,
      many,
      answer(many.map((r, i) => (r.seq === 1066 ? no(i, r.seq, REFUSED) : ok(i, r.seq)))),
      answer(many.map((r, i) => (r.seq === 1066 ? no(i, r.seq, REFUSED) : dup(i, r.seq)))),
    );
    assert.equal(after.seqs.length, 2 + 59);
    await sql
      .raw('drop trigger refuse_66' + (dialect === 'postgres' ? ' on telemetry_records' : ''))
      .execute(t.db.kysely);
    if (dialect === 'postgres') await sql.raw('drop function refuse_66()').execute(t.db.kysely);
    // Nothing of the refused records was left half-written: sent again, they are created once, whole
    // (late: the vehicle's later fixes were processed meanwhile).
    const res = await post(t, v.device.device_token, { records: mixed });
    assert.deepEqual(
      res.body,
      answer([dup(0, 65), { ...ok(1, 66), late: true }, { ...ok(2, 166), late: true }, dup(3, 67)]),
    );
    const done = await footprint(v);
    assert.deepEqual(
      [done.reports, done.entries, done.events],
      [before.reports + 1, before.entries + 1, before.events + 2],
    );
  });
});
