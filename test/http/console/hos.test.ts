/**
 * The console's hours-of-service page: drivers with a violation open now first, then by least time left;
 * the name, group and violation filters; the day picker showing the chosen day's log and violations;
 * every time in the company's zone with the zone named; bad filters refused with the reason; nothing of
 * another company's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { Browser, PASSWORD, uniq, useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { recordDutyStatusEvents } from '../../../src/domain/hos/service.js';
import { createCompany } from '../../../src/domain/companies/service.js';
import { createUser } from '../../../src/domain/users/service.js';
import { changeMembers, createGroup } from '../../../src/domain/groups/service.js';
import { addDays, localDate, startOfDay } from '../../../src/core/time-zone.js';
import { consoleBrowser } from './kit.js';

const H = 3_600_000;
const M = 60_000;

/** A company in `timeZone` with an admin who can sign in, and a way to add named drivers. */
async function zonedCompany(t: OAuthTestApp, timeZone: string) {
  const c = await createCompany(t.db, { name: `Zone ${uniq()}`, time_zone: timeZone });
  const person = async (role: string, first: string, last: string) => {
    const email = `${role}.${uniq()}@zone.test`;
    const u = await createUser(
      t.db,
      { companyId: c.id },
      { role, email, password: PASSWORD, first_name: first, last_name: last },
    );
    return { id: u.id as number, email };
  };
  return {
    companyId: c.id,
    admin: await person('admin', 'Ada', 'Admin'),
    driver: (f: string, l: string) => person('driver', f, l),
  };
}

/** "14:05 CST" of an instant, written by Intl independently of the page's own formatter. */
function clock(ms: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(new Date(ms));
  const get = (k: string) => parts.find((p) => p.type === k)!.value;
  return `${get('hour')}:${get('minute')} ${get('timeZoneName')}`;
}

const order = (body: string) =>
  [...body.matchAll(/<li class="hos-driver[^"]*" data-driver="(\d+)">/g)].map((m) => Number(m[1]));
const rowOf = (body: string, id: number) => {
  const m = new RegExp(
    `<li class="hos-driver[^"]*" data-driver="${id}">([\\s\\S]*?)</li>\\n?(?=<li class="hos-driver|</ol>)`,
  ).exec(body);
  assert.ok(m, `row of driver ${id}`);
  return m[1];
};
const count = (body: string) => /<span role="status">([^<]*)<\/span>/.exec(body)?.[1];

eachDialect('fleet console hours of service', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('an open violation first, then least time left; the filters narrow the list; times in the company zone', async () => {
    const t = await getApp();
    const co = await zonedCompany(t, 'Central Time (US & Canada)');
    const zone = 'America/Chicago';
    const now = Math.floor(Date.now() / M) * M - M;
    const ann = await co.driver('Ann', 'Alpha');
    const bo = await co.driver('Bo', 'Bravo');
    const cy = await co.driver('Cy', 'Charlie');
    const di = await co.driver('Di', 'Delta');
    const log = (id: number, events: Array<[number, string]>) =>
      recordDutyStatusEvents(
        t.db,
        { companyId: co.companyId },
        id,
        events.map(([h, status]) => ({ at: now - h * H, status: status as 'driving' })),
      );
    // Ann has driven 9 h without a break and still drives: the 30-minute break is broken since an hour
    // ago, with 2 h of driving left. Bo drove 9.5 h with a break and has 1.5 h left, Cy 9 h, Di 11 h.
    await log(ann.id, [
      [9.5, 'on_duty'],
      [9, 'driving'],
    ]);
    await log(bo.id, [
      [11, 'on_duty'],
      [10.5, 'driving'],
      [5.5, 'off_duty'],
      [5, 'driving'],
      [0.5, 'off_duty'],
    ]);
    await log(cy.id, [
      [3, 'on_duty'],
      [2.5, 'driving'],
      [0.5, 'off_duty'],
    ]);
    const group = await createGroup(t.db, { companyId: co.companyId }, { name: 'Nights' }, null);
    await changeMembers(t.db, { companyId: co.companyId }, group.id, 'group_users', [cy.id, di.id], 'add');

    const { b } = await consoleBrowser(t, co.admin.email);
    const page = await b.get('/console/hos');
    assert.equal(page.status, 200, page.body);
    assert.match(page.headers['content-security-policy'], /script-src 'self'/);
    assert.deepEqual(order(page.body), [ann.id, bo.id, cy.id, di.id], 'open violation first, then least time left');
    assert.equal(count(page.body), '4 drivers');
    assert.match(
      page.body,
      /<p class="muted" id="hos-zone">Times in America\/Chicago \(Central Time \(US &amp; Canada\)\); now \d\d:\d\d C[SD]T\./,
    );
    const today = localDate(Date.now(), zone);
    assert.match(
      page.body,
      new RegExp(
        `<input id="hos-date" name="date" type="date" required min="2000-01-01" max="${today}" value="${today}">`,
      ),
    );

    // With the date in front when the instant falls before today (in the first hour after midnight).
    const dated = (ms: number) => `${localDate(ms, zone) === today ? '' : `${localDate(ms, zone)} `}${clock(ms, zone)}`;
    const annRow = rowOf(page.body, ann.id);
    assert.ok(
      annRow.includes(`<strong>Open violation:</strong> 30 Minute Break Required since ${dated(now - H)}`),
      annRow,
    );
    assert.match(annRow, /<p class="muted hos-status">driving · (1h 5\dm|2h 00m) left<\/p>/);
    assert.match(annRow, /<meter id="clock-\d+-drive" min="0" max="39600000"/);
    assert.match(rowOf(page.body, bo.id), /<p class="muted hos-status">off duty · 1h 30m left<\/p>/);
    assert.match(rowOf(page.body, cy.id), /<p class="muted hos-status">off duty · 9h 00m left<\/p>/);
    assert.match(rowOf(page.body, di.id), /<p class="muted hos-status">off duty · 11h 00m left<\/p>/);
    assert.match(rowOf(page.body, di.id), new RegExp(`<p class="muted">No log on ${today}.</p>`));
    const drive = `Driving ${clock(now - 2.5 * H, zone).slice(0, 5)}–${clock(now - 0.5 * H, zone)}`;
    if (localDate(now - 2.5 * H, zone) === today)
      assert.ok(rowOf(page.body, cy.id).includes(`<title>${drive}</title>`), drive);

    const only = async (query: string, ids: number[], status: string) => {
      const res = await b.get(`/console/hos?${query}`);
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(order(res.body), ids, query);
      assert.equal(count(res.body), status, query);
    };
    await only('q=bravo', [bo.id], '1 of 4 drivers');
    await only('q=%20ALPHA%20', [ann.id], '1 of 4 drivers');
    await only(`group=${group.id}`, [cy.id, di.id], '2 of 4 drivers');
    await only(`group=${group.id}&q=delta`, [di.id], '1 of 4 drivers');
    await only('violations=1', [ann.id], '1 of 4 drivers');
    await only('q=nobody', [], '0 of 4 drivers');
    const filtered = await b.get(`/console/hos?group=${group.id}&violations=1&q=c`);
    assert.match(filtered.body, new RegExp(`<option value="${group.id}" selected>Nights</option>`));
    assert.match(filtered.body, /<input type="checkbox" name="violations" value="1" checked>/);
    assert.match(
      filtered.body,
      /<input id="hos-q" name="q" type="search" maxlength="100" autocomplete="off" value="c">/,
    );
    // The day links keep the filters.
    assert.ok(
      filtered.body.includes(
        `href="/console/hos?date=${addDays(today, -1)}&amp;q=c&amp;group=${group.id}&amp;violations=1" rel="prev"`,
      ),
    );

    const other = await consoleBrowser(t, t.fleet.admin.email);
    const theirs = await other.b.get('/console/hos');
    assert.equal(theirs.status, 200);
    assert.doesNotMatch(theirs.body, new RegExp(`data-driver="(${[ann.id, bo.id, cy.id, di.id].join('|')})"`));
    assert.equal((await new Browser(t.app).get('/console/hos')).status, 303);
  });

  test("the day picker shows the chosen day's log and violations, in the company's zone", async () => {
    const t = await getApp();
    const co = await zonedCompany(t, 'Mountain Time (US & Canada)');
    const zone = 'America/Denver';
    const eve = await co.driver('Eve', 'Echo');
    const today = localDate(Date.now(), zone);
    // Three days back, or further when that day is a 23- or 25-hour daylight-saving day.
    let day = addDays(today, -3);
    while (startOfDay(addDays(day, 1), zone).getTime() - startOfDay(day, zone).getTime() !== 24 * H)
      day = addDays(day, -1);
    const start = startOfDay(day, zone).getTime();
    // 12 hours of driving without a break: the 30-minute break from 8 h on, the 11-hour limit from 11 h on.
    await recordDutyStatusEvents(t.db, { companyId: co.companyId }, eve.id, [
      { at: start + 6 * H, status: 'on_duty' },
      { at: start + 6.5 * H, status: 'driving' },
      { at: start + 18.5 * H, status: 'off_duty' },
    ]);
    const { b } = await consoleBrowser(t, co.admin.email);

    const shown = await b.get(`/console/hos?date=${day}`);
    assert.equal(shown.status, 200, shown.body);
    const row = rowOf(shown.body, eve.id);
    assert.ok(
      row.includes(
        `aria-label="Log of Eve Echo for ${day}: Off duty 5h 30m, Sleeper 0h 00m, Driving 12h 00m, On duty 0h 30m"`,
      ),
      row,
    );
    assert.ok(
      row.includes(
        `<title>Driving ${clock(start + 6.5 * H, zone).slice(0, 5)}–${clock(start + 18.5 * H, zone)}</title>`,
      ),
    );
    assert.match(
      row,
      /<div class="hos-totals" aria-hidden="true"><span>5:30<\/span><span>0:00<\/span><span>12:00<\/span><span>0:30<\/span><\/div>/,
    );
    const violations = /<ul class="hos-violations" aria-label="Violations on ([\d-]+)">([\s\S]*?)<\/ul>/.exec(row);
    assert.ok(violations, row);
    assert.equal(violations[1], day);
    assert.deepEqual(
      [...violations[2].matchAll(/<li>([^<]*) <span class="muted">([^<]*)<\/span><\/li>/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      ),
      [
        `30 Minute Break Required ${clock(start + 14.5 * H, zone).slice(0, 5)}–${clock(start + 18.5 * H, zone)}`,
        `11 Hour Driving Limit ${clock(start + 17.5 * H, zone).slice(0, 5)}–${clock(start + 18.5 * H, zone)}`,
      ],
    );
    assert.match(clock(start, zone), / M[SD]T$/, 'the zone is named');
    const long = new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    });
    assert.ok(shown.body.includes(`<strong id="hos-day" aria-live="polite">${long}</strong>`));
    assert.ok(shown.body.includes(`<a href="/console/hos?date=${addDays(day, -1)}" rel="prev">Previous day</a>`));
    assert.ok(shown.body.includes(`<a href="/console/hos?date=${addDays(day, 1)}" rel="next">Next day</a>`));
    assert.ok(shown.body.includes(`<a href="/console/hos?date=${today}">Today</a>`));

    // Today: the same driver's log is today's, all off duty so far, and the violations stay on their day.
    const now = await b.get('/console/hos');
    assert.match(
      rowOf(now.body, eve.id),
      new RegExp(
        `aria-label="Log of Eve Echo for ${today}: Off duty \\d+h \\d\\dm, Sleeper 0h 00m, Driving 0h 00m, On duty 0h 00m"`,
      ),
    );
    assert.ok(rowOf(now.body, eve.id).includes(`<p class="muted small">No violations on ${today}.</p>`));
    assert.match(now.body, /<span class="muted" aria-disabled="true">Next day<\/span>/);
    assert.deepEqual(order((await b.get(`/console/hos?date=${day}&violations=1`)).body), [eve.id]);
    assert.deepEqual(order((await b.get(`/console/hos?date=${addDays(day, -1)}&violations=1`)).body), []);
    // Before the driver's first record there is no log.
    assert.match(
      rowOf((await b.get(`/console/hos?date=${addDays(day, -1)}`)).body, eve.id),
      new RegExp(`No log on ${addDays(day, -1)}.`),
    );

    for (const [query, message] of [
      ['date=2024-02-30', 'date must be a day written YYYY-MM-DD (got &quot;2024-02-30&quot;)'],
      ['date=yesterday', 'date must be a day written YYYY-MM-DD (got &quot;yesterday&quot;)'],
      [`date=${addDays(today, 1)}`, `date must not be after today (${today})`],
      ['date=1999-12-31', 'date must not be before 2000-01-01'],
      ['group=abc', 'group must be a group id (got &quot;abc&quot;)'],
      ['group=987654321', 'group 987654321 is not a group of your drivers'],
      ['violations=yes', 'violations must be 1 when given (got &quot;yes&quot;)'],
      [`q=${'x'.repeat(101)}`, 'the driver search must be at most 100 characters'],
    ]) {
      const res = await b.get(`/console/hos?${query}`);
      assert.equal(res.status, 400, query);
      assert.ok(
        res.body.includes(`<p class="error" role="alert">${message}</p>`),
        `${query}: ${res.body.slice(0, 200)}`,
      );
      assert.deepEqual(order(res.body), [], query);
    }
  });
});
