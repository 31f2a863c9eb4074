/**
 * The duty-status record store on both databases: users.duty_status and its event, violations opening,
 * closing and withdrawn (hos_violation_upserted), edits keeping inactive history, automatically recorded
 * driving that cannot be shortened, carrier edits needing the driver's acceptance, idempotent resends,
 * validation, and the re-evaluation of drivers whose limits pass without a new record.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { createVehicle } from '../../http/fixtures.js';
import { AppError } from '../../../src/core/errors.js';
import { editDutyStatus, decideEdit } from '../../../src/domain/hos/edits.js';
import { refreshDue } from '../../../src/domain/hos/evaluation.js';
import { recordDutyStatusEvents } from '../../../src/domain/hos/service.js';
import { H, MINUTE, at, daysAgo, driver, log } from './fixtures.js';

const iso = (ms: number) => new Date(ms).toISOString();

async function refused(p: Promise<unknown>, status: number, message: RegExp) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.status, status);
    assert.match(err.message, message);
    return true;
  });
}

eachDialect('HOS record store', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  const now = Date.now();
  const events = (action: string, subjectType: string) =>
    t.db.kysely
      .selectFrom('domain_events')
      .selectAll()
      .where('company_id', '=', t.company.id)
      .where('action', '=', action)
      .where('subject_type', '=', subjectType)
      .orderBy('id')
      .execute();
  const violationsOf = (driverId: number) =>
    t.db.kysely.selectFrom('hos_violations').selectAll().where('driver_id', '=', driverId).orderBy('id').execute();

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
  });

  test('the current status becomes users.duty_status and is announced', async () => {
    const d = await driver(t);
    await log(t, d.id, [
      [now - 2 * H, 'on_duty'],
      [now - H, 'personal_conveyance'],
    ]);
    const user = await t.call({ method: 'GET', url: `/v1/users/${d.id}` });
    assert.equal(user.body.user.duty_status, 'off_duty');
    await log(t, d.id, [[now - 10 * MINUTE, 'driving']]);
    const sent = (await events('user_duty_status_updated', 'user')).filter((e) => e.subject_id === String(d.id));
    assert.deepEqual(
      sent.map((e) => JSON.parse(e.data).duty_status),
      ['driving'],
    );
    assert.equal(sent[0]!.trigger, 'updated');
    assert.equal(JSON.parse(sent[0]!.data).password_hash, undefined);
  });

  test('a violation is announced when it opens and when it closes', async () => {
    const d = await driver(t);
    await log(t, d.id, [[now - 12 * H, 'driving']]);
    const d11 = async () => (await violationsOf(d.id)).filter((x) => x.type === 'driving_11');
    let [v] = await d11();
    assert.equal(v!.type, 'driving_11');
    assert.equal(v!.end_at, null);
    await log(t, d.id, [[now - 30 * MINUTE, 'off_duty']]);
    [v] = await d11();
    assert.equal(v!.end_at, iso(now - 30 * MINUTE));
    const sent = (await events('hos_violation_upserted', 'hos_violation')).filter(
      (e) => e.subject_id === String(v!.id),
    );
    assert.deepEqual(
      sent.map((e) => [e.trigger, JSON.parse(e.data).end_time]),
      [
        ['created', null],
        ['updated', `${iso(now - 30 * MINUTE).slice(0, 19)}Z`],
      ],
    );
    const payload = JSON.parse(sent[0]!.data);
    assert.deepEqual(Object.keys(payload), ['id', 'type', 'name', 'start_time', 'end_time', 'driver']);
    assert.deepEqual(Object.keys(payload.driver), ['id', 'first_name', 'last_name', 'driver_company_id']);
  });

  test('a violation withdrawn by a later split pair is marked and announced', async () => {
    const d = await driver(t);
    const s = now - 24 * H;
    const ctx = { companyId: t.company.id };
    const rec = (at: number, status: 'driving' | 'off_duty' | 'sleeper' | 'on_duty', evalAt: number) =>
      recordDutyStatusEvents(t.db, ctx, d.id, [{ at: iso(at), status }], { now: evalAt });
    await rec(s, 'driving', s + H);
    await rec(s + 5 * H, 'off_duty', s + 5 * H);
    await rec(s + 10 * H, 'driving', s + 10 * H);
    await rec(s + 15 * H, 'sleeper', s + 15 * H + 30 * MINUTE);
    const before = await violationsOf(d.id);
    assert.deepEqual(
      before.map((v) => [v.type, v.withdrawn_at]),
      [['duty_14', null]],
    );
    await rec(s + 22 * H, 'on_duty', s + 22 * H);
    const after = await violationsOf(d.id);
    assert.ok(after[0]!.withdrawn_at, 'withdrawn');
    const sent = (await events('hos_violation_upserted', 'hos_violation')).filter(
      (e) => e.subject_id === String(after[0]!.id),
    );
    assert.equal(JSON.parse(sent[sent.length - 1]!.data).withdrawn, true);
    const list = await t.call({
      method: 'GET',
      url: `/v1/hos_violations?driver_ids=${d.id}&min_start_time=${iso(s).slice(0, 10)}`,
    });
    assert.equal(list.body.pagination.total, 0);
  });

  test("a driver's edit keeps the originals as inactive history and restores the status at its end", async () => {
    const d = await driver(t);
    const s = now - 10 * H;
    await log(t, d.id, [
      [s, 'on_duty'],
      [s + 2 * H, 'driving'],
      [s + 4 * H, 'off_duty'],
    ]);
    const edit = await editDutyStatus(t.db, { companyId: t.company.id }, d.id, {
      start: iso(s + H),
      end: iso(s + 3 * H),
      status: 'sleeper',
      annotation: 'Was in the sleeper, not driving',
    });
    assert.equal(edit.state, 'applied');
    const rows = await t.db.kysely
      .selectFrom('hos_events')
      .selectAll()
      .where('driver_id', '=', d.id)
      .orderBy('occurred_at')
      .orderBy('id')
      .execute();
    const view = rows.map((r) => [r.occurred_at, r.status, r.record_status, r.record_origin]);
    assert.deepEqual(view, [
      [iso(s), 'on_duty', 1, 2],
      [iso(s + H), 'sleeper', 1, 2],
      [iso(s + 2 * H), 'driving', 2, 2],
      [iso(s + 3 * H), 'driving', 1, 2],
      [iso(s + 4 * H), 'off_duty', 1, 2],
    ]);
    assert.equal(rows[2]!.superseded_by_edit_id, edit.id);
    assert.equal(rows[3]!.edit_id, edit.id);
    assert.equal(rows[1]!.notes, 'Was in the sleeper, not driving');
    const y = iso(s).slice(0, 10);
    const hos = await t.call({ method: 'GET', url: `/v1/hours_of_service?driver_ids=${d.id}&start_date=${y}` });
    const total = hos.body.hours_of_services.reduce((a: number, r: any) => a + r.hours_of_service.sleeper_duration, 0);
    assert.equal(total, 2 * 3600);
    await refused(
      editDutyStatus(t.db, { companyId: t.company.id }, d.id, {
        start: iso(s),
        end: iso(s + H),
        status: 'off_duty',
        annotation: 'x',
      }),
      400,
      /annotation/,
    );
    await refused(
      editDutyStatus(t.db, { companyId: t.company.id }, d.id, {
        start: iso(s),
        end: iso(now + H),
        status: 'off_duty',
        annotation: 'Future',
      }),
      400,
      /future/,
    );
  });

  test('a status across midnight, recorded with milliseconds, counts whole seconds on each log day', async () => {
    const d = await driver(t);
    const [first, second] = [daysAgo(3), daysAgo(2)];
    await log(t, d.id, [
      [at(first, '23:00') + 600, 'sleeper'],
      [at(second, '01:00') + 600, 'off_duty'],
    ]);
    const hos = await t.call({
      method: 'GET',
      url: `/v1/hours_of_service?driver_ids=${d.id}&start_date=${first}&end_date=${second}`,
    });
    const days = hos.body.hours_of_services.map((r: any) => [
      r.hours_of_service.date,
      r.hours_of_service.sleeper_duration,
      r.hours_of_service.off_duty_duration,
    ]);
    assert.deepEqual(days.sort(), [
      [first, 3600, 82800],
      [second, 3600, 82800],
    ]);
  });

  test("a log day is as long as the driver's day: 23 and 25 hours on the daylight-saving changes", async () => {
    const d = await driver(t, { time_zone: 'Eastern Time (US & Canada)' });
    await log(t, d.id, [
      ['2026-03-07T15:00:00.250Z', 'on_duty'],
      ['2026-03-07T17:00:00.750Z', 'off_duty'],
    ]);
    const total = async (date: string) => {
      const res = await t.call({
        method: 'GET',
        url: `/v1/hours_of_service?driver_ids=${d.id}&start_date=${date}&end_date=${date}`,
      });
      const [row] = res.body.hours_of_services.map((r: any) => r.hours_of_service);
      return [
        row.date,
        row.off_duty_duration +
          row.on_duty_duration +
          row.sleeper_duration +
          row.driving_duration +
          row.waiting_duration,
        row.on_duty_duration,
      ];
    };
    assert.deepEqual(await total('2026-03-07'), ['2026-03-07', 86400, 7200]);
    assert.deepEqual(await total('2026-03-08'), ['2026-03-08', 82800, 0]);
    assert.deepEqual(await total('2026-11-01'), ['2026-11-01', 90000, 0]);
  });

  test('automatically recorded driving cannot be shortened, by a record or an edit', async () => {
    const d = await driver(t);
    const s = now - 6 * H;
    await log(t, d.id, [
      { at: iso(s), status: 'driving', origin: 'auto' },
      { at: iso(s + 2 * H), status: 'on_duty', origin: 'auto' },
    ]);
    await refused(log(t, d.id, [[s + H, 'off_duty']]), 400, /automatically recorded driving .* cannot be shortened/);
    await refused(
      editDutyStatus(t.db, { companyId: t.company.id }, d.id, {
        start: iso(s + H),
        end: iso(s + 90 * MINUTE),
        status: 'on_duty',
        annotation: 'Was fuelling',
      }),
      400,
      /cannot be shortened/,
    );
    const longer = await editDutyStatus(t.db, { companyId: t.company.id }, d.id, {
      start: iso(s - H),
      end: iso(s),
      status: 'driving',
      annotation: 'Drove before the ELD saw it',
    });
    assert.equal(longer.state, 'applied');
    await log(t, d.id, [{ at: iso(s + 3 * H), status: 'driving', origin: 'auto' }]);
    await log(t, d.id, [[s + 4 * H, 'off_duty']]);
  });

  test("a carrier's edit waits for the driver: rejected changes nothing, accepted applies", async () => {
    const d = await driver(t);
    const s = now - 8 * H;
    await log(t, d.id, [
      [s, 'off_duty'],
      [s + 4 * H, 'on_duty'],
    ]);
    const ctx = { companyId: t.company.id };
    const asked = await editDutyStatus(t.db, ctx, d.id, {
      start: iso(s + H),
      end: iso(s + 2 * H),
      status: 'on_duty',
      annotation: 'Pre-trip inspection missing',
      origin: 'edit',
    });
    assert.equal(asked.state, 'requested');
    const count = async () =>
      (
        await t.db.kysely
          .selectFrom('hos_events')
          .select('id')
          .where('driver_id', '=', d.id)
          .where('record_status', '=', 1)
          .execute()
      ).length;
    assert.equal(await count(), 2);
    assert.equal((await decideEdit(t.db, ctx, d.id, asked.id, false)).state, 'rejected');
    assert.equal(await count(), 2);
    await refused(decideEdit(t.db, ctx, d.id, asked.id, true), 400, /rejected, not requested/);
    const again = await editDutyStatus(t.db, ctx, d.id, {
      start: iso(s + H),
      end: iso(s + 2 * H),
      status: 'on_duty',
      annotation: 'Pre-trip inspection missing',
      origin: 'edit',
    });
    assert.equal((await decideEdit(t.db, ctx, d.id, again.id, true)).state, 'applied');
    const origins = await t.db.kysely
      .selectFrom('hos_events')
      .select(['status', 'record_origin'])
      .where('driver_id', '=', d.id)
      .where('record_status', '=', 1)
      .orderBy('occurred_at')
      .execute();
    assert.deepEqual(
      origins.map((r) => [r.status, r.record_origin]),
      [
        ['off_duty', 2],
        ['on_duty', 3],
        ['off_duty', 3],
        ['on_duty', 2],
      ],
    );
  });

  test('skipRefused: a device batch keeps its good records and reports the refused ones', async () => {
    const d = await driver(t);
    const s = now - 6 * H;
    await log(t, d.id, [
      { at: iso(s), status: 'driving', origin: 'auto' },
      { at: iso(s + 2 * H), status: 'on_duty', origin: 'auto' },
    ]);
    const r = await recordDutyStatusEvents(
      t.db,
      { companyId: t.company.id },
      d.id,
      [
        { at: iso(s + H), status: 'off_duty' },
        { at: iso(s + 3 * H), status: 'napping' as never },
        { at: iso(s + 4 * H), status: 'off_duty' },
      ],
      { skipRefused: true },
    );
    assert.equal(r.ids.length, 1);
    assert.deepEqual(
      r.refused.map((x) => x.index),
      [1, 0],
    );
    assert.match(r.refused[1]!.error_message, /cannot be shortened/);
  });

  test('a resend from the same device with the same sequence id is ignored', async () => {
    const d = await driver(t);
    const e = { at: iso(now - H), status: 'on_duty' as const, eldDeviceId: 77, sequenceId: 12 };
    const first = await recordDutyStatusEvents(t.db, { companyId: t.company.id }, d.id, [e]);
    const again = await recordDutyStatusEvents(t.db, { companyId: t.company.id }, d.id, [e]);
    assert.deepEqual([first.ids.length, first.duplicates, again.ids.length, again.duplicates], [1, 0, 0, 1]);
  });

  test('refused input: unknown or foreign driver, bad status, future instant, foreign vehicle', async () => {
    const d = await driver(t);
    const theirs = await driver(t, {}, other);
    const theirVehicle = await createVehicle(t, {}, other);
    await refused(log(t, theirs.id, [[now - H, 'on_duty']]), 404, /driver/);
    await refused(log(t, d.id, [[now - H, 'napping']]), 400, /status must be one of/);
    await refused(log(t, d.id, [[now + H, 'on_duty']]), 400, /future/);
    await refused(log(t, d.id, [{ at: iso(now - H), status: 'driving', vehicleId: theirVehicle.id }]), 400, /vehicle/);
    await refused(log(t, d.id, [{ at: iso(now - H), kind: 'certification' }]), 400, /date/);
  });

  test('a limit reached while driving, with no new record, is found by refreshDue', async () => {
    const d = await driver(t);
    await log(t, d.id, [[now - 10 * H, 'driving']]);
    assert.equal((await violationsOf(d.id)).filter((v) => v.type === 'driving_11').length, 0);
    const state = await t.db.kysely
      .selectFrom('hos_driver_states')
      .selectAll()
      .where('driver_id', '=', d.id)
      .executeTakeFirstOrThrow();
    // The 11-hour limit, or the end of the log day (midnight in the driver's zone, UTC here) when the
    // test runs in the last hour before it.
    const midnight = Math.ceil((now + 1) / 86_400_000) * 86_400_000;
    assert.equal(state.next_check_at, iso(Math.min(now + H, midnight)), 'the next change');
    await refreshDue(t.db, { companyId: t.company.id }, now + 2 * H);
    const v = (await violationsOf(d.id)).find((x) => x.type === 'driving_11');
    assert.ok(v && v.end_at === null && v.start_at === iso(now + H));
  });
});
