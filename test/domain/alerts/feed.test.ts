/**
 * Alerts from the events the webhooks announce, end to end: records posted through the device API
 * become, once the alert worker has run, one alert per speeding event, geofence entry and exit, new
 * fault code, gateway disconnect and hours-of-service violation, in the console feed of each admin and
 * fleet manager who may see the vehicle or driver (a group-limited manager: only their groups) and who
 * chose that kind; drivers get none; the feed is bounded; marking read and the preferences form keep
 * the CSRF protection.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp } from '../../auth/oauth/flows.js';
import { consoleBrowser } from '../../http/console/kit.js';
import { ALERT_ENV, drive, feedOf, limitedUser, scene } from './scene.js';

const byKind = (items: unknown[][]) => [...items].sort((a, b) => String(a[0]).localeCompare(String(b[0])));

eachDialect('alerts: the console feed', (dialect) => {
  const getApp = useOAuthApp(dialect, { ...ALERT_ENV, ALERT_FEED_MAX: '10' });

  test('each event makes one alert, in the feeds of the managers who may see it, as the user reads it', async () => {
    const t = await getApp();
    const s = await scene(t);
    const admin = await consoleBrowser(t, s.fleet.admin.email);
    const manager = await consoleBrowser(t, s.fleet.manager.email);
    const west = await limitedUser(t, s, [s.west]);
    const east = await limitedUser(t, s, [s.east]);
    await s.send(drive(s, s.fleet.driver.id));
    await t.app.alertWorker.runOnce();
    await t.app.alertWorker.runOnce();

    const speeding = (await s.api.call({ url: `/v1/speeding_events?vehicle_ids=${s.vehicleId}` })).body
      .speeding_events[0].speeding_event;
    const gateway = (
      await t.db.kysely
        .selectFrom('domain_events')
        .select('data')
        .where('company_id', '=', s.fleet.companyId)
        .where('action', '=', 'vehicle_gateway_disconnected')
        .executeTakeFirstOrThrow()
    ).data;
    const place = JSON.parse(gateway).location;
    assert.match(place, /, IL$/);
    const expected = [
      ['fault_code', `${s.number}: fault code SPN 110 FMI 0`, 'Engine Coolant Temperature · severity warning', false],
      ['gateway_disconnect', `${s.number}: gateway disconnected`, `${place} · Driver Pat driver`, false],
      ['geofence_entry', `${s.number} entered ${s.geofence}`, 'Driver Pat driver', false],
      ['geofence_exit', `${s.number} left ${s.geofence}`, 'after 29 s inside · Driver Pat driver', false],
      [
        'speeding',
        `${s.number} speeding at 78 mph`,
        `limit 75 mph · low severity · ${speeding.location} · Driver Pat driver`,
        false,
      ],
    ];
    const seen = await feedOf(admin.b);
    assert.deepEqual(byKind(seen.items), expected);
    assert.equal(seen.unread, 5);
    assert.deepEqual(byKind((await feedOf(manager.b)).items), expected, 'a manager who sees every group');
    assert.deepEqual(byKind((await feedOf(west.b)).items), expected, "a manager of the vehicle's group");
    assert.deepEqual((await feedOf(east.b)).items, [], 'a manager of another group');
    const rows = await t.db.kysely
      .selectFrom('alert_recipients')
      .select('user_id')
      .where('user_id', '=', s.fleet.driver.id)
      .execute();
    assert.deepEqual(rows, [], 'drivers get no alerts');

    // The page: newest first, unread count in the header; mark one read, then all.
    const page = await admin.b.get('/console/alerts');
    assert.equal(page.status, 200);
    assert.match(page.body, /<span class="alerts-count" data-unread="5">5<\/span>/);
    assert.match(page.body, /aria-label="Alerts, 5 unread" aria-current="page"/);
    const ids = [...page.body.matchAll(/<li class="alert-entry [^"]*" data-id="(\d+)"/g)].map((m) => Number(m[1]));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
    );
    assert.equal(ids.length, 5);
    const refused = await admin.b.post('/console/alerts/read', { ids: String(ids[0]) });
    assert.equal(refused.status, 400, 'no CSRF token');
    const forged = await admin.b.post('/console/alerts/read', { csrf_token: 'x'.repeat(43), ids: String(ids[0]) });
    assert.equal(forged.status, 403);
    assert.equal((await feedOf(admin.b)).unread, 5);
    const one = await admin.b.post('/console/alerts/read', { csrf_token: admin.csrf, ids: String(ids[0]) });
    assert.equal(one.status, 303);
    assert.equal(one.headers.location, '/console/alerts?done=read');
    const after = await feedOf(admin.b);
    assert.equal(after.unread, 4);
    assert.equal(after.raw.find((a) => a.id === ids[0]).read, true);
    assert.equal((await feedOf(manager.b)).unread, 5, "another user's feed is their own");
    const unreadPage = await admin.b.get('/console/alerts?show=unread');
    assert.equal([...unreadPage.body.matchAll(/<li class="alert-entry/g)].length, 4);
    await admin.b.post('/console/alerts/read', { csrf_token: admin.csrf, all: '1' });
    assert.equal((await feedOf(admin.b)).unread, 0);
    const map = await admin.b.get('/console');
    assert.match(map.body, /<span class="alerts-count" data-unread="0" hidden>0<\/span>/);

    // The same events again make nothing new.
    await t.app.alertWorker.runOnce();
    assert.equal((await feedOf(manager.b)).items.length, 5);
  });

  test('preferences: a kind turned off in the console stays out of the feed; CSRF is required', async () => {
    const t = await getApp();
    const s = await scene(t, 'Choosy Freight');
    const admin = await consoleBrowser(t, s.fleet.admin.email);
    const form = await admin.b.get('/console/alerts/preferences');
    assert.equal(form.status, 200);
    for (const kind of [
      'hos_violation',
      'speeding',
      'geofence_entry',
      'geofence_exit',
      'fault_code',
      'gateway_disconnect',
    ]) {
      assert.match(form.body, new RegExp(`name="console" value="${kind}" id="console-${kind}" checked`));
      assert.match(form.body, new RegExp(`name="email" value="${kind}" id="email-${kind}" aria-label`), 'email is off');
    }
    assert.match(form.body, /This server sends no email yet/);
    const keep = ['hos_violation', 'geofence_entry', 'geofence_exit', 'fault_code', 'gateway_disconnect'];
    assert.equal((await admin.b.post('/console/alerts/preferences', { console: keep })).status, 400);
    const saved = await admin.b.post('/console/alerts/preferences', { csrf_token: admin.csrf, console: keep });
    assert.equal(saved.status, 303);
    const again = await admin.b.get(saved.headers.location);
    assert.match(again.body, /Your alert settings were saved/);
    assert.doesNotMatch(again.body, /value="speeding" id="console-speeding" checked/);
    assert.match(again.body, /value="fault_code" id="console-fault_code" checked/);

    await s.send(drive(s, s.fleet.driver.id));
    await t.app.alertWorker.runOnce();
    const kinds = (await feedOf(admin.b)).items.map((i) => i[0]).sort();
    assert.deepEqual(kinds, ['fault_code', 'gateway_disconnect', 'geofence_entry', 'geofence_exit']);
    const manager = await consoleBrowser(t, s.fleet.manager.email);
    assert.ok(
      (await feedOf(manager.b)).items.some((i) => i[0] === 'speeding'),
      "the other user's choice is theirs",
    );
  });

  test('hours-of-service violations: one alert each, withdrawn when the log no longer shows it; the feed keeps ALERT_FEED_MAX', async () => {
    const t = await getApp();
    const s = await scene(t, 'Long Haul');
    const admin = await consoleBrowser(t, s.fleet.admin.email);
    const driver = s.fleet.driver.id;
    const duty = (sec: number, status: string) => ({ type: 'duty_status', time: s.at(sec), driver_id: driver, status });
    // 12 hours of driving from 15 h ago: past the 30-minute break (after 8 h) and the 11-hour limit.
    await s.send([duty(-12 * 3600, 'driving'), duty(0, 'off_duty')]);
    await t.app.alertWorker.runOnce();
    const created = await t.db.kysely
      .selectFrom('domain_events')
      .select(['subject_id', 'data', 'trigger'])
      .where('company_id', '=', s.fleet.companyId)
      .where('action', '=', 'hos_violation_upserted')
      .orderBy('id')
      .execute();
    const standing = new Map<string, string>();
    for (const e of created) {
      const d = JSON.parse(e.data);
      if (d.withdrawn) standing.delete(e.subject_id);
      else if (e.trigger === 'created') standing.set(e.subject_id, d.name);
    }
    assert.ok([...standing.values()].includes('11 Hour Driving Limit'), JSON.stringify([...standing.values()]));
    const feed = await feedOf(admin.b);
    const hos = feed.items.filter((i) => i[0] === 'hos_violation');
    const open = hos.filter((i) => i[2] === 'HOS violation');
    assert.deepEqual(open.map((i) => i[1]).sort(), [...standing.values()].map((n) => `Pat driver: ${n}`).sort());
    for (const w of hos.filter((i) => i[2] !== 'HOS violation')) {
      assert.deepEqual([w[2], w[3]], ['Withdrawn: the log no longer shows this violation', true]);
    }
    assert.equal(feed.unread, open.length);

    // Bounded: with ALERT_FEED_MAX=10, more drives leave the newest 10.
    await s.send(
      drive(s, driver).map((r) => ({ ...r, time: new Date(Date.parse(String(r.time)) + 600_000).toISOString() })),
    );
    await s.send(
      drive(s, driver).map((r) => ({ ...r, time: new Date(Date.parse(String(r.time)) + 1_200_000).toISOString() })),
    );
    await t.app.alertWorker.runOnce();
    const total = await t.db.kysely
      .selectFrom('alerts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', s.fleet.companyId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(total.n), 10);
    assert.equal((await feedOf(admin.b)).items.length, 10);
  });
});
