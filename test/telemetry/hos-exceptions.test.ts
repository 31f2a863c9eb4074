/**
 * Exception claims from devices (docs/device-protocol.md, `exception`): an adverse-driving claim lets a
 * driver drive 13 h in a 16-hour window without a violation, the same day without it has the 11-hour
 * and 14-hour violations, the log shows the claim as a remark (the exception's name and the driver's note), and a bad claim is refused with the
 * reason, leaving nothing behind.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { driver } from '../domain/hos/fixtures.js';
import { at, DAY, rig, send, type Rig } from './fixtures.js';
import { dayEvents, duty } from './hos-fixtures.js';

const H = 3600;
const claim = (s: number, driverId: number, extra: Record<string, unknown>) => ({
  type: 'exception',
  time: at(s),
  driver_id: driverId,
  ...extra,
});
const SNOW = 'Snow closed I-80 at Laramie; detour via US-287';

/** A 16-hour day with 13 h of driving: on duty, 6 h driving, a 30-minute break, 7 h driving, on duty until hour 16. */
const longDay = (d: number) => [
  duty(0, d, 'on_duty'),
  duty(1 * H, d, 'driving'),
  duty(7 * H, d, 'off_duty'),
  duty(7.5 * H, d, 'driving'),
  duty(14.5 * H, d, 'on_duty'),
  duty(16 * H, d, 'off_duty'),
];

eachDialect('exception claims from devices', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let r: Rig;
  before(async () => {
    t = await getApp();
    r = await rig(t);
  });

  const violations = async (driverId: number) =>
    (
      await t.call({ url: `/v1/hos_violations?driver_ids[]=${driverId}&min_start_time=${encodeURIComponent(at(-H))}` })
    ).body.hos_violations.map(({ hos_violation: v }: any) => [
      v.type,
      (Date.parse(v.start_time) - Date.parse(at(0))) / 1000 / H,
      (Date.parse(v.end_time) - Date.parse(at(0))) / 1000 / H,
    ]);

  test('13 h of driving in a 16-hour window: no violation under an adverse-driving claim; without it, driving_11 and duty_14', async () => {
    const claimed = await driver(t, { exception_adverse_driving: true });
    const plain = await driver(t, { exception_adverse_driving: true });
    const res = await send(t, r, [
      ...longDay(claimed.id),
      claim(9 * H, claimed.id, { exception: 'adverse_driving', note: SNOW }),
    ]);
    assert.deepEqual(
      res.results.map((x: any) => x.status),
      Array(7).fill('accepted'),
    );
    await send(t, r, longDay(plain.id));
    assert.deepEqual(await violations(claimed.id), []);
    // 11 h of driving reached at hour 12.5; the 14-hour window ends at hour 14.
    assert.deepEqual(await violations(plain.id), [
      ['driving_11', 12.5, 14.5],
      ['duty_14', 14, 14.5],
    ]);
    const day = (await t.call({ url: `/v1/logs?driver_ids[]=${claimed.id}&start_date=${DAY}&end_date=${DAY}` })).body
      .logs[0].log;
    assert.deepEqual(
      day.remarks.map(({ remark: x }: any) => [Date.parse(x.time), x.notes]),
      [[Date.parse(at(9 * H)), `Adverse driving conditions: ${SNOW}`]],
    );
    assert.equal(day.driving_duration, 8.5 * H, '6 h, then 2 h 30 min until the test day ends at hour 10 (UTC)');
  });

  test('a claim sent late reaches the log and withdraws the violations it excuses (announced); a claim made with a duty status counts the same', async () => {
    const late = await driver(t, { exception_adverse_driving: true });
    const withStatus = await driver(t, { exception_adverse_driving: true });
    await send(t, r, longDay(late.id));
    assert.deepEqual(
      (await violations(late.id)).map((v: any) => v[0]),
      ['driving_11', 'duty_14'],
    );
    await send(t, r, [claim(9 * H, late.id, { exception: 'adverse_driving', note: SNOW })]);
    assert.deepEqual(await violations(late.id), []);
    const withdrawn = (
      await t.db.kysely
        .selectFrom('domain_events')
        .select('data')
        .where('company_id', '=', t.company.id)
        .where('action', '=', 'hos_violation_upserted')
        .execute()
    )
      .map((e) => JSON.parse(e.data))
      .filter((v) => v.driver.id === late.id && v.withdrawn === true)
      .map((v) => v.type)
      .sort();
    assert.deepEqual(withdrawn, ['driving_11', 'duty_14']);

    const days = longDay(withStatus.id);
    days[3] = duty(7.5 * H, withStatus.id, 'driving', { exception: 'adverse_driving', note: SNOW });
    await send(t, r, days);
    assert.deepEqual(await violations(withStatus.id), []);
    const log = (await t.call({ url: `/v1/logs?driver_ids[]=${withStatus.id}&start_date=${DAY}&end_date=${DAY}` })).body
      .logs[0].log;
    assert.deepEqual(
      log.remarks.map(({ remark: x }: any) => [Date.parse(x.time), x.notes]),
      [[Date.parse(at(7.5 * H)), `Adverse driving conditions: ${SNOW}`]],
    );
    assert.deepEqual(
      (await dayEvents(t, withStatus.id)).map((e) => e[0]),
      ['on_duty', 'driving', 'off_duty', 'driving'],
      'the status is in the log too',
    );
  });

  test('bad claims are refused one by one with the reason, and leave nothing behind', async () => {
    const d = await driver(t, { exception_adverse_driving: true });
    const off = await driver(t);
    const canadian = await driver(t, { cycle: 'canada_7day' });
    const other = await t.newCompany('Elsewhere');
    const stranger = await driver(t, { exception_adverse_driving: true }, other);
    const bad: Array<[Record<string, unknown>, string]> = [
      [claim(100, d.id, {}), 'exception is required'],
      [
        claim(100, d.id, { exception: 'weather', note: SNOW }),
        'exception must be one of: adverse_driving, sixteen_hour',
      ],
      [
        claim(100, d.id, { exception: 'adverse_driving' }),
        'note is required with an adverse_driving claim: what the adverse conditions were, 4 to 60 characters',
      ],
      [
        claim(100, d.id, { exception: 'adverse_driving', note: 'fog' }),
        'note is required with an adverse_driving claim: what the adverse conditions were, 4 to 60 characters',
      ],
      [
        claim(100, d.id, { exception: 'adverse_driving', note: 'x'.repeat(61) }),
        'note must be at most 60 characters long',
      ],
      [{ type: 'exception', time: at(100), exception: 'sixteen_hour' }, 'driver_id is required'],
      [
        claim(100, stranger.id, { exception: 'sixteen_hour' }),
        `driver_id ${stranger.id} is not a driver of this company`,
      ],
      [
        claim(100, off.id, { exception: 'adverse_driving', note: SNOW }),
        `driver ${off.id} may not claim adverse_driving: the driver's exception_adverse_driving is off`,
      ],
      [
        claim(100, canadian.id, { exception: 'sixteen_hour' }),
        `driver ${canadian.id} may not claim sixteen_hour: the 16-hour exception (395.1(o)) applies to US property-carrying drivers, not cycle canada_7day`,
      ],
      [
        duty(100, off.id, 'driving', { exception: 'adverse_driving', note: SNOW }),
        `driver ${off.id} may not claim adverse_driving: the driver's exception_adverse_driving is off`,
      ],
      [duty(100, d.id, 'driving', { exception: 'fog' }), 'exception must be one of: adverse_driving, sixteen_hour'],
    ];
    const records = bad.map(([x]) => ({ ...x, seq: ++r.seq }));
    const res = await send(t, r, [...records, claim(200, d.id, { exception: 'sixteen_hour', seq: ++r.seq })]);
    assert.deepEqual(
      res.results.map((x: any) => [x.status, x.error_message ?? null]),
      [...bad.map(([, why]) => ['rejected', why]), ['accepted', null]],
    );
    // Sent again: refused again (nothing was stored under those seqs), the good one a duplicate.
    const again = await send(t, r, [...records, { ...claim(200, d.id, { exception: 'sixteen_hour' }), seq: r.seq }]);
    assert.deepEqual(
      again.results.map((x: any) => x.status),
      [...bad.map(() => 'rejected'), 'duplicate'],
    );
    const stored = await t.db.kysely
      .selectFrom('telemetry_records')
      .select('seq')
      .where('device_id', '=', r.device.id)
      .where(
        'seq',
        'in',
        records.map((x) => x.seq),
      )
      .execute();
    assert.deepEqual(stored, []);
    const logged = await t.db.kysely
      .selectFrom('hos_events')
      .select(['kind', 'code'])
      .where('driver_id', 'in', [d.id, off.id, canadian.id])
      .execute();
    assert.deepEqual(
      logged,
      [{ kind: 'exception', code: 'sixteen_hour' }],
      "the off driver's refused status is not in the log either",
    );
  });
});
