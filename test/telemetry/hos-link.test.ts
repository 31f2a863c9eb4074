/**
 * Device duty-status records reach the hours-of-service logs: sent through the device API, processed
 * in fix-time order, they change the driver's duty status, the daily totals and the violations, once
 * each, however often the batch is re-sent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect, useApp } from '../helper.js';
import { at, login, rig, send, settle, track } from './fixtures.js';

const duty = (s: number, driverId: number, status: string) => ({
  type: 'duty_status',
  time: at(s),
  driver_id: driverId,
  status,
});

eachDialect('device duty status → hours of service', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });

  test('on duty, then 11 h 30 min of driving: the driver is driving with a driving_11 violation, logged once', async () => {
    const t = await getApp();
    const r = await rig(t);
    const d = r.driver.id;
    const records = [duty(0, d, 'on_duty'), duty(1800, d, 'driving'), duty(1800 + 11.5 * 3600, d, 'on_duty')];
    await send(t, r, records);
    // A device re-sends the same batch (same sequence numbers): nothing changes.
    r.seq = 0;
    const again = await send(t, r, records);
    assert.deepEqual(
      again.results.map((x: any) => x.status),
      ['duplicate', 'duplicate', 'duplicate'],
    );
    await settle(t);

    const user = await t.call({ url: `/v1/users/${d}` });
    assert.equal(user.body.user.duty_status, 'on_duty');

    const v = await t.call({
      url: `/v1/hos_violations?driver_ids[]=${d}&min_start_time=${encodeURIComponent(at(-3600))}`,
    });
    assert.equal(v.status, 200, JSON.stringify(v.body));
    const types = v.body.hos_violations.map((x: any) => x.hos_violation.type);
    assert.ok(types.includes('driving_11'), JSON.stringify(types));
    assert.equal(types.filter((x: string) => x === 'driving_11').length, 1);

    const events = await t.db.kysely
      .selectFrom('domain_events')
      .select(['action'])
      .where('company_id', '=', t.company.id)
      .execute();
    assert.ok(events.some((e) => e.action === 'user_duty_status_updated'));
    assert.ok(events.some((e) => e.action === 'hos_violation_upserted'));
  });

  test('automatic driving detection: a logged-in driver moving is driving; stopped past the timeout, on duty', async () => {
    const t = await getApp();
    const r = await rig(t);
    const d = r.driver.id;
    // Log in, stand 2 min, drive 90 km/h for 20 min, then stand 10 min.
    const records = [
      login(0, d),
      ...track({ fromS: 10, toS: 120, kph: 0 }),
      ...track({ fromS: 130, toS: 1330, kph: 90 }),
      ...track({ fromS: 1340, toS: 1940, kph: 0, lon: -89.65 + 30 / (111.32 * Math.cos((39.8 * Math.PI) / 180)) }),
    ];
    await send(t, r, records);
    await settle(t);
    const rows = await t.db.kysely
      .selectFrom('hos_events')
      .select(['status', 'occurred_at', 'record_origin'])
      .where('driver_id', '=', d)
      .where('kind', '=', 'duty_status')
      .where('record_status', '=', 1)
      .orderBy('occurred_at')
      .execute();
    assert.deepEqual(
      rows.map((x) => [x.status, x.occurred_at.slice(0, 19)]),
      [
        ['driving', at(130).slice(0, 19)],
        // Stopped at 1340 s; the 5-minute prompt unanswered for 1 minute: on duty at 1340 + 360 s.
        ['on_duty', at(1700).slice(0, 19)],
      ],
    );
    assert.ok(
      rows.every((x) => x.record_origin === 1),
      'recorded as automatic',
    );
    const user = await t.call({ url: `/v1/users/${d}` });
    assert.equal(user.body.user.duty_status, 'on_duty');
  });
});
