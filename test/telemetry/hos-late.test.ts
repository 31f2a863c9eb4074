/**
 * A driver's log takes every duty status a device sends, whenever it arrives: after an hour of newer
 * fixes, a day late, a second status at the same instant, and after the server restarted. Each one
 * re-evaluates the driver from its instant on (duty status, violations, daily totals) and what changed
 * is announced. The reorder window is the default 60 s, so these records are `late` for derived data.
 * A late status the HOS rules refuse (inside automatically recorded driving) is rejected, not dropped.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, makeApp, useApp, type TestApp } from '../helper.js';
import { driver } from '../domain/hos/fixtures.js';
import { at, DAY, DEG_PER_KM, login, rig, send, track } from './fixtures.js';
import { announced, dayEvents, duty, restarted } from './hos-fixtures.js';

const H = 3600;
const nextDay = new Date(Date.parse(`${DAY}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

eachDialect('late duty statuses reach the log', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  before(async () => {
    t = await getApp();
  });

  test('a status sent after an hour of newer fixes: accepted (late for derived data), in the log, the duty status changed and announced', async () => {
    const r = await rig(t);
    const d = await driver(t);
    await send(t, r, track({ fromS: 0, toS: H, everyS: 30, kph: 0 }));
    const res = await send(t, r, [duty(1200, d.id, 'on_duty')]);
    assert.deepEqual(res.results, [{ index: 0, seq: r.seq, status: 'accepted', late: true }]);
    assert.deepEqual(await dayEvents(t, d.id), [['on_duty', 1200, null]]);
    assert.equal((await t.call({ url: `/v1/users/${d.id}` })).body.user.duty_status, 'on_duty');
    const changes = (await announced(t, 'user_duty_status_updated')).filter((e) => e.subject === d.id);
    assert.deepEqual(
      changes.map((e) => [e.trigger, e.data.duty_status]),
      [['updated', 'on_duty']],
    );
  });

  test('a status sent a day late: the driver is re-evaluated from its instant (a driving_11 violation, announced; the daily totals)', async () => {
    const r = await rig(t);
    const d = await driver(t);
    // 7 h of driving, a 30-minute break, 4 h more: 11 h, within the limits.
    await send(t, r, [
      duty(0, d.id, 'on_duty'),
      duty(0.5 * H, d.id, 'driving'),
      duty(7.5 * H, d.id, 'off_duty'),
      duty(8 * H, d.id, 'driving'),
      duty(12 * H, d.id, 'on_duty'),
      duty(13 * H, d.id, 'off_duty'),
    ]);
    const violations = async () =>
      (
        await t.call({ url: `/v1/hos_violations?driver_ids[]=${d.id}&min_start_time=${encodeURIComponent(at(0))}` })
      ).body.hos_violations.map(({ hos_violation: v }: any) => [
        v.type,
        Date.parse(v.start_time),
        Date.parse(v.end_time),
      ]);
    assert.deepEqual(await violations(), []);
    // A day of newer fixes, then the status the device had not sent: it drove again from 12:30 to 13:00.
    await send(t, r, track({ fromS: 37 * H, toS: 37 * H + 120, everyS: 60, kph: 0 }));
    const res = await send(t, r, [duty(12.5 * H, d.id, 'driving')]);
    assert.equal(res.results[0].status, 'accepted');
    assert.equal(res.results[0].late, true);
    assert.deepEqual(await violations(), [['driving_11', Date.parse(at(12.5 * H)), Date.parse(at(13 * H))]]);
    const created = (await announced(t, 'hos_violation_upserted')).filter((e) => e.data.driver.id === d.id);
    assert.deepEqual(
      created.map((e) => [e.trigger, e.data.type, Date.parse(e.data.start_time)]),
      [['created', 'driving_11', Date.parse(at(12.5 * H))]],
    );
    // The test day runs from T0 − 14 h to T0 + 10 h (UTC): 7 h + 2 h of driving on it, 2 h + 30 min on the
    // next; 30 min on duty on each (the late status cut the second in half).
    const totals = (
      await t.call({ url: `/v1/hours_of_service?driver_ids[]=${d.id}&start_date=${DAY}&end_date=${nextDay}` })
    ).body.hours_of_services.map(({ hours_of_service: h }: any) => [h.date, h.driving_duration, h.on_duty_duration]);
    assert.deepEqual(totals, [
      [DAY, 9 * H, 0.5 * H],
      [nextDay, 2.5 * H, 0.5 * H],
    ]);
  });

  test('statuses at the same instant in separate batches (in time, and late): all in the log, in order of arrival; the last one is in effect; a re-send adds nothing', async () => {
    const r = await rig(t);
    const d = await driver(t);
    await send(t, r, [duty(600, d.id, 'on_duty')]);
    assert.deepEqual(
      (await send(t, r, [duty(600, d.id, 'sleeper')])).results.map((x: any) => [x.status, x.late]),
      [['accepted', undefined]],
    );
    await send(t, r, track({ fromS: 0, toS: 1200, everyS: 30, kph: 0 }));
    const third = { ...duty(600, d.id, 'driving'), seq: ++r.seq };
    assert.deepEqual((await send(t, r, [third])).results, [
      { index: 0, seq: third.seq, status: 'accepted', late: true },
    ]);
    const all: Array<[string, number, number | null]> = [
      ['on_duty', 600, 600],
      ['sleeper', 600, 600],
      ['driving', 600, null],
    ];
    assert.deepEqual(await dayEvents(t, d.id), all);
    assert.equal((await t.call({ url: `/v1/users/${d.id}` })).body.user.duty_status, 'driving');
    assert.deepEqual((await send(t, r, [third])).results, [{ index: 0, seq: third.seq, status: 'duplicate' }]);
    assert.deepEqual(await dayEvents(t, d.id), all);
  });

  test('a late status inside driving the ELD recorded itself is rejected with the reason, and kept nowhere', async () => {
    const r = await rig(t);
    const d = await driver(t);
    // Logged in, standing 2 min, 20 min at 90 km/h, then standing: automatic driving from 130 s to 1700 s.
    await send(t, r, [
      login(0, d.id),
      ...track({ fromS: 10, toS: 120, kph: 0 }),
      ...track({ fromS: 130, toS: 1330, kph: 90 }),
      ...track({ fromS: 1340, toS: 1940, kph: 0, lon: -89.65 + 30 * DEG_PER_KM }),
    ]);
    assert.deepEqual(await dayEvents(t, d.id), [
      ['driving', 130, 1700],
      ['on_duty', 1700, null],
    ]);
    const res = await send(t, r, [duty(600, d.id, 'on_duty')]);
    const iso = (s: number) => new Date(at(s)).toISOString();
    assert.deepEqual(res.results, [
      {
        index: 0,
        seq: r.seq,
        status: 'rejected',
        error_message: `automatically recorded driving (${iso(130)} to ${iso(1700)}) cannot be shortened`,
      },
    ]);
    assert.deepEqual(await dayEvents(t, d.id), [
      ['driving', 130, 1700],
      ['on_duty', 1700, null],
    ]);
    const kept = await t.db.kysely
      .selectFrom('telemetry_records')
      .select('id')
      .where('device_id', '=', r.device.id)
      .where('seq', '=', r.seq)
      .execute();
    assert.deepEqual(kept, []);
  });

  test('after a restart (a new app on the same database): a late status and a second one at its instant still reach the log', async () => {
    const before = await makeApp(dialect, { TELEMETRY_SWEEP_MS: '0' });
    const r = await rig(before);
    const d = await driver(before);
    await send(before, r, [duty(0, d.id, 'on_duty'), ...track({ fromS: 10, toS: H, everyS: 30, kph: 0 })]);
    await before.app.close();
    const after = await restarted(before);
    try {
      const late = await send(after, r, [duty(1800, d.id, 'driving')]);
      assert.deepEqual(
        late.results.map((x: any) => [x.status, x.late]),
        [['accepted', true]],
      );
      await send(after, r, [duty(1800, d.id, 'off_duty')]);
      assert.deepEqual(await dayEvents(after, d.id), [
        ['on_duty', 0, 1800],
        ['driving', 1800, 1800],
        ['off_duty', 1800, null],
      ]);
      assert.equal((await after.call({ url: `/v1/users/${d.id}` })).body.user.duty_status, 'off_duty');
    } finally {
      await after.app.close();
      await before.close();
    }
  });
});
