/** The gauges read at scrape time (outbox depth, telemetry lag) and the webhook attempt counter. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect, makeApp } from '../helper.js';
import { createVehicle } from '../http/fixtures.js';
import { rig, send, settle, track } from '../telemetry/fixtures.js';
import { makeHookApp, registerHook, startReceiver } from '../events/webhooks/receiver.js';
import { METRICS_ENV, scrape } from './scrape.js';

eachDialect('metrics read from the database', (dialect) => {
  test('outbox depth: events recorded and not fanned out yet, back to 0 after the fan-out', async () => {
    const t = await makeApp(dialect, METRICS_ENV);
    try {
      const before = (await scrape(t.app)).samples.get('fleet_outbox_events_pending')!;
      await createVehicle(t);
      await createVehicle(t);
      const s = await scrape(t.app);
      assert.equal(s.samples.get('fleet_outbox_events_pending'), before + 2);
      const age = s.samples.get('fleet_outbox_oldest_event_age_seconds')!;
      assert.ok(age >= 0 && age < 600, `oldest event age ${age}`);
      await t.app.webhooks.worker.runOnce();
      const after = await scrape(t.app);
      assert.equal(after.samples.get('fleet_outbox_events_pending'), 0);
      assert.equal(after.samples.get('fleet_outbox_oldest_event_age_seconds'), 0);
    } finally {
      await t.close();
    }
  });

  test('ingestion lag: a vehicle with stored records not processed, and how far processing trails in fix time', async () => {
    const t = await makeApp(dialect, { ...METRICS_ENV, TELEMETRY_REORDER_WINDOW_S: '600', TELEMETRY_SWEEP_MS: '0' });
    try {
      const r = await rig(t);
      const idle = await scrape(t.app);
      assert.equal(idle.samples.get('fleet_telemetry_pending_vehicles'), 0);
      assert.equal(idle.samples.get('fleet_telemetry_oldest_pending_age_seconds'), 0);
      // Inside the reorder window: stored and acknowledged, not processed.
      await send(t, r, track({ fromS: 0, toS: 60, kph: 50 }));
      const stored = await scrape(t.app);
      assert.equal(stored.samples.get('fleet_telemetry_pending_vehicles'), 1);
      const age = stored.samples.get('fleet_telemetry_oldest_pending_age_seconds')!;
      assert.ok(age >= 0 && age < 60, `oldest pending age ${age}`);
      assert.equal(stored.samples.get('fleet_telemetry_fix_lag_seconds'), 0, 'never processed: no horizon yet');
      await settle(t);
      assert.equal((await scrape(t.app)).samples.get('fleet_telemetry_pending_vehicles'), 0);
      // Processed up to 60 s; records up to 160 s stored: processing trails by 100 s of fix time.
      await send(t, r, track({ fromS: 100, toS: 160, kph: 50 }));
      const trailing = await scrape(t.app);
      assert.equal(trailing.samples.get('fleet_telemetry_pending_vehicles'), 1);
      assert.equal(trailing.samples.get('fleet_telemetry_fix_lag_seconds'), 100);
      await settle(t);
      const done = await scrape(t.app);
      assert.equal(done.samples.get('fleet_telemetry_pending_vehicles'), 0);
      assert.equal(done.samples.get('fleet_telemetry_fix_lag_seconds'), 0);
    } finally {
      await t.close();
    }
  });

  test('webhook attempts are counted by outcome and result; deliveries waiting by state', async () => {
    const t = await makeHookApp(dialect, METRICS_ENV);
    const receiver = await startReceiver();
    try {
      let answer = 500;
      // The test delivery at registration succeeds (the webhook starts enabled); deliveries get `answer`.
      receiver.respond = (req) => ({ status: Array.isArray(req.body) ? 200 : answer });
      await registerHook(t, receiver, ['vehicle_upserted']);
      assert.equal((await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'M-1' } })).status, 201);
      const queued = await scrape(t.app);
      assert.equal(queued.samples.get('fleet_outbox_events_pending'), 1);
      const first = await t.run();
      assert.equal(first.attempts, 1);
      const failed = await scrape(t.app);
      assert.deepEqual(failed.lines('fleet_webhook_attempts_total'), [
        'fleet_webhook_attempts_total{outcome="retry",result="5xx"} 1',
      ]);
      assert.equal(failed.samples.get('fleet_webhook_deliveries{state="pending"}'), 1);
      assert.equal(failed.samples.get('fleet_webhook_deliveries{state="delivering"}'), 0);
      assert.equal(failed.samples.get('fleet_outbox_events_pending'), 0);
      // Again 500 after the first retry delay, then 200 after the second.
      t.clock.advance(10_000);
      await t.run();
      answer = 200;
      t.clock.advance(60_000);
      await t.run();
      const s = await scrape(t.app);
      assert.deepEqual(s.lines('fleet_webhook_attempts_total').sort(), [
        'fleet_webhook_attempts_total{outcome="delivered",result="2xx"} 1',
        'fleet_webhook_attempts_total{outcome="retry",result="5xx"} 2',
      ]);
      assert.equal(s.samples.get('fleet_webhook_deliveries{state="pending"}'), 0);
    } finally {
      await t.close();
      await receiver.close();
    }
  });

  test('a delivery that uses up the retry schedule counts as failed', async () => {
    const t = await makeHookApp(dialect, { ...METRICS_ENV, WEBHOOK_RETRY_SCHEDULE_S: 'none' });
    const receiver = await startReceiver();
    try {
      receiver.respond = (req) => ({ status: Array.isArray(req.body) ? 200 : 503 });
      await registerHook(t, receiver, ['vehicle_upserted']);
      assert.equal((await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'M-2' } })).status, 201);
      await t.run();
      assert.deepEqual((await scrape(t.app)).lines('fleet_webhook_attempts_total'), [
        'fleet_webhook_attempts_total{outcome="failed",result="5xx"} 1',
      ]);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
