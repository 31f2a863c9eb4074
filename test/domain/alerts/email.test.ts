/**
 * Alerts by email, against a real SMTP server on 127.0.0.1 (./smtp.ts): a user who chose email gets the
 * alerts of the kinds they chose, from SMTP_FROM, signed in with SMTP_URL's user and password; a
 * temporary refusal is retried until the server takes the email; a permanent one fails at once; an
 * email whose sender died mid-send is sent once its claim lapses (at least once); ingest answers and the
 * console shows the alerts while no mail server answers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { makeOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { consoleBrowser } from '../../http/console/kit.js';
import { claimEmails } from '../../../src/domain/alerts/email-queue.js';
import { ALERT_ENV, drive, feedOf, scene, type Scene } from './scene.js';
import { generateAlerts } from '../../../src/events/alerts/generate.js';
import { nowIso } from '../../../src/storage/values.js';
import { startSmtp } from './smtp.js';

const FROM = 'Fleet alerts <alerts@fleet.test>';

eachDialect('alerts: email', (dialect) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: OAuthTestApp;
  before(async () => {
    smtp = await startSmtp();
    t = await makeOAuthApp(dialect, {
      ...ALERT_ENV,
      SMTP_URL: smtp.url,
      SMTP_FROM: FROM,
      ALERT_EMAIL_RETRY_SCHEDULE_S: '1,1',
      PUBLIC_URL: 'https://fleet.example.com',
    });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** The admin chooses email for these kinds (and keeps the console for all). */
  async function choose(s: Scene, kinds: string[]) {
    const admin = await consoleBrowser(t, s.fleet.admin.email);
    const all = ['hos_violation', 'speeding', 'geofence_entry', 'geofence_exit', 'fault_code', 'gateway_disconnect'];
    const res = await admin.b.post('/console/alerts/preferences', {
      csrf_token: admin.csrf,
      console: all,
      email: kinds,
    });
    assert.equal(res.status, 303);
    const form = await admin.b.get('/console/alerts/preferences');
    assert.match(form.body, new RegExp(`Emails go to ${s.fleet.admin.email.replace(/\./g, '\\.')}\\.`));
  }

  const states = (companyId: number) =>
    t.db.kysely
      .selectFrom('alert_emails')
      .select(['state', 'attempts', 'last_error', 'to_address'])
      .where('company_id', '=', companyId)
      .orderBy('id')
      .execute();

  /** Runs the worker until the company has no email waiting (a retry is due a second later). */
  async function drain(companyId: number) {
    for (let i = 0; i < 100; i++) {
      await t.app.alertWorker.runOnce();
      if ((await states(companyId)).every((e) => e.state === 'sent' || e.state === 'failed')) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`emails still waiting: ${JSON.stringify(await states(companyId))}`);
  }

  test('the kinds a user chose reach their mailbox, with what the feed says', async () => {
    const s = await scene(t, 'Mailbox Freight');
    await choose(s, ['speeding', 'geofence_entry']);
    const before = smtp.messages.length;
    await s.send(drive(s, s.fleet.driver.id));
    await drain(s.fleet.companyId);
    const got = smtp.messages.slice(before);
    const speeding = (await s.api.call({ url: `/v1/speeding_events?vehicle_ids=${s.vehicleId}` })).body
      .speeding_events[0].speeding_event;
    assert.deepEqual(got.map((m) => [m.from, m.to, m.subject]).sort(), [
      ['alerts@fleet.test', [s.fleet.admin.email], `[Mailbox Freight] ${s.number} entered ${s.geofence}`],
      ['alerts@fleet.test', [s.fleet.admin.email], `[Mailbox Freight] ${s.number} speeding at 78 mph`],
    ]);
    const mail = got.find((m) => m.subject.includes('speeding'))!;
    const when = /^When: (\d{4}-\d\d-\d\d \d\d:\d\d E[SD]T)$/m.exec(mail.text);
    assert.ok(when, JSON.stringify(mail.text));
    assert.equal(
      mail.text.trim(),
      [
        `${s.number} speeding at 78 mph`,
        `limit 75 mph · low severity · ${speeding.location} · Driver Pat driver`,
        `When: ${when[1]}`,
        '',
        'All alerts: https://fleet.example.com/console/alerts',
        'Which alerts you get, and how: https://fleet.example.com/console/alerts/preferences',
      ].join('\n'),
    );
    assert.deepEqual(
      (await states(s.fleet.companyId)).map((e) => [e.state, e.attempts]),
      [
        ['sent', 1],
        ['sent', 1],
      ],
    );
  });

  test('a temporary refusal is retried until the server takes it; a permanent one fails at once', async () => {
    const s = await scene(t, 'Retry Freight');
    await choose(s, ['fault_code', 'gateway_disconnect']);
    const before = smtp.messages.length;
    smtp.refusals.push(
      { code: 451, message: 'Try again later' },
      { code: 451, message: 'Try again later' },
      { code: 550, message: 'No such mailbox' },
    );
    await s.send(drive(s, s.fleet.driver.id));
    await t.app.alertWorker.runOnce();
    const first = await states(s.fleet.companyId);
    assert.deepEqual(
      first.map((e) => [e.state, e.attempts]),
      [
        ['pending', 1],
        ['pending', 1],
      ],
    );
    assert.match(first[0].last_error!, /451 Try again later/);
    await drain(s.fleet.companyId);
    const end = await states(s.fleet.companyId);
    assert.deepEqual(end.map((e) => [e.state, e.attempts]).sort(), [
      ['failed', 2],
      ['sent', 2],
    ]);
    assert.match(end.find((e) => e.state === 'failed')!.last_error!, /550 No such mailbox/);
    assert.equal(smtp.messages.length - before, 1);
  });

  test('an email claimed by a node that died is sent once its claim lapses (at least once)', async () => {
    const s = await scene(t, 'Crash Freight');
    await choose(s, ['fault_code']);
    await s.send(drive(s, s.fleet.driver.id));
    await generateAlerts(t.db, { keep: 1000, email: { publicUrl: t.app.config.publicUrl }, batch: 100, now: nowIso() });
    const lease = t.app.config.alerts.emailLeaseMs;
    // A node claims the email and dies before it records anything.
    const claimed = await claimEmails(t.db, new Date(), lease, 10);
    assert.equal(claimed.length, 1);
    const before = smtp.messages.length;
    await t.app.alertWorker.runOnce();
    assert.equal(smtp.messages.length, before, 'nobody else sends it while the claim holds');
    assert.deepEqual(
      (await states(s.fleet.companyId)).map((e) => e.state),
      ['sending'],
    );
    // The lease runs out.
    await t.db.kysely
      .updateTable('alert_emails')
      .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', claimed[0].id)
      .execute();
    await drain(s.fleet.companyId);
    assert.equal(smtp.messages.length - before, 1);
    assert.match(smtp.messages.at(-1)!.subject, /fault code SPN 110 FMI 0$/);
  });

  test('while no mail server answers, the device API answers and the emails wait', async () => {
    const down = await startSmtp();
    await down.close();
    const closed = await makeOAuthApp(dialect, {
      ...ALERT_ENV,
      SMTP_URL: down.url,
      SMTP_FROM: FROM,
      SMTP_TIMEOUT_MS: '500',
    });
    try {
      const s = await scene(closed, 'Offline Mail');
      const admin = await consoleBrowser(closed, s.fleet.admin.email);
      await admin.b.post('/console/alerts/preferences', {
        csrf_token: admin.csrf,
        console: ['fault_code'],
        email: ['fault_code'],
      });
      await s.send(drive(s, s.fleet.driver.id));
      await closed.app.alertWorker.runOnce();
      const rows = await closed.db.kysely
        .selectFrom('alert_emails')
        .select(['state', 'attempts', 'last_error'])
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.state, r.attempts]),
        [['pending', 1]],
      );
      assert.match(rows[0].last_error!, /ECONNREFUSED|connect/i);
      assert.equal((await feedOf(admin.b)).items.length, 1, 'the console has it all the same');
    } finally {
      await closed.close();
    }
  });
});
