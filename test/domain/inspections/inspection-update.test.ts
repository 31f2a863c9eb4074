/**
 * The inspection report update, PUT /v1/inspection_reports/:id (and /v2): external ids, the mechanic's
 * sign-off for the whole report or per defect, reopening, bad input that changes nothing, tenant
 * isolation, and the inspection_report_upserted events.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import {
  DATETIME,
  USER_SUMMARY_KEYS,
  assertError,
  assertKeySet,
  createUser,
  createVehicle,
} from '../../http/fixtures.js';
import { REPORT_KEYS, submitReport, wire } from '../../http/fleet-record-fixtures.js';

eachDialect('inspection reports: update', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  let admin: any;
  let admin2: any;
  let mech: any;
  let driver: any;
  let vehicle: any;

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
    admin = await createUser(t, { role: 'admin', first_name: 'First', last_name: 'Admin' });
    admin2 = await createUser(t, { role: 'admin', first_name: 'Second', last_name: 'Admin' });
    mech = await createUser(t, { role: 'fleet_user', first_name: 'Mo', last_name: 'Mechanic' });
    driver = await createUser(t);
    vehicle = await createVehicle(t);
  });

  const report = (defects = 2, extra: Record<string, unknown> = {}) =>
    submitReport(t, {
      driver_id: driver.id,
      vehicle_id: vehicle.id,
      driver_signed_at: new Date(Date.now() - 3_000_000).toISOString(),
      defects: Array.from({ length: defects }, (_, i) => ({ area: 'tractor', category: `Part ${i + 1}` })),
      ...extra,
    });
  const put = (id: number, payload: unknown, extra: Record<string, unknown> = {}) =>
    t.call({ method: 'PUT', url: `/v1/inspection_reports/${id}`, payload: payload as object, ...extra });
  const read = async (id: number) => {
    const res = await t.call({
      method: 'GET',
      url: `/v1/inspection_reports?updated_after=2000-01-01&status=all&per_page=100`,
    });
    return res.body.inspection_reports.map((w: any) => w.inspection_report).find((x: any) => x.id === id);
  };
  const defectIds = async (id: number) => (await read(id)).defects.map((w: any) => w.defect.id);
  const events = async (id: number) =>
    await t.db.kysely
      .selectFrom('domain_events')
      .selectAll()
      .where('subject_type', '=', 'inspection_report')
      .where('subject_id', '=', String(id))
      .orderBy('id')
      .execute();

  test('status corrected: the mechanic signs the whole report off; the response is the updated report', async () => {
    const r = await report();
    const res = await put(r.id, {
      status: 'corrected',
      mechanic_id: mech.id,
      mechanic_note: 'Replaced both',
      mechanic_signature_url: 'https://files.example/m.png',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['inspection_report']);
    const x = res.body.inspection_report;
    assertKeySet(x, REPORT_KEYS);
    assert.equal(x.status, 'corrected');
    assertKeySet(x.mechanic, USER_SUMMARY_KEYS, 'mechanic');
    assert.equal(x.mechanic.id, mech.id);
    assert.match(x.mechanic_signed_at, DATETIME);
    assert.ok(Math.abs(Date.parse(x.mechanic_signed_at) - Date.now()) < 60_000);
    assert.equal(x.mechanic_signature_url, 'https://files.example/m.png');
    const ev = await events(r.id);
    assert.deepEqual(
      ev.map((e) => [e.action, e.trigger]),
      [
        ['inspection_report_upserted', 'created'],
        ['inspection_report_upserted', 'updated'],
      ],
    );
    const data = JSON.parse(ev[1].data);
    assert.deepEqual(
      data.defects.map((d: any) => d.status),
      ['repaired', 'repaired'],
    );
    assert.equal(data.mechanic_note, 'Replaced both');
  });

  test('status harmless without a mechanic: the acting admin signs (X-User-Id, else the first admin)', async () => {
    const r1 = await report(1);
    const a = await put(r1.id, { status: 'harmless' });
    assert.equal(a.body.inspection_report.status, 'harmless');
    assert.equal(a.body.inspection_report.mechanic.id, admin.id);
    const r2 = await report(1);
    const b = await put(
      r2.id,
      { inspection_report: { status: 'harmless' } },
      { headers: { 'x-user-id': String(admin2.id) } },
    );
    assert.equal(b.body.inspection_report.status, 'harmless');
    assert.equal(b.body.inspection_report.mechanic.id, admin2.id);
  });

  test('defect_statuses as real clients send it, one defect at a time, on /v2 too', async () => {
    const r = await report(2);
    const [d1, d2] = await defectIds(r.id);
    const signedAt = new Date(Date.now() - 60_000).toISOString();
    const first = await put(r.id, {
      time: 'ignored',
      defect_statuses: {
        status: 'repaired',
        mechanic_id: mech.id,
        mechanic_name: 'Mo Mechanic',
        mechanic_note: 'Fixed',
        mechanic_signed_at: signedAt,
        resolved_defects: [d1],
      },
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.inspection_report.status, 'unknown', 'one defect still open');
    assert.equal(first.body.inspection_report.mechanic, null);
    assert.equal(first.body.inspection_report.mechanic_signed_at, null);
    const second = await t.call({
      method: 'PUT',
      url: `/v2/inspection_reports/${r.id}`,
      payload: {
        defect_statuses: [
          { status: 'no_repair_needed', mechanic_id: mech.id, mechanic_signed_at: signedAt, resolved_defects: [d2] },
        ],
      },
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    const x = second.body.inspection_report;
    assert.equal(x.status, 'corrected', 'one repaired, one needing no repair');
    assert.equal(x.mechanic.id, mech.id);
    assert.equal(x.mechanic_signed_at, wire(signedAt));
    const rows = await t.db.kysely
      .selectFrom('inspection_defects')
      .selectAll()
      .where('report_id', '=', r.id)
      .orderBy('position')
      .execute();
    assert.deepEqual(
      rows.map((d) => [d.status, d.resolved_by, d.resolution_note]),
      [
        ['repaired', mech.id, 'Fixed'],
        ['no_repair_needed', mech.id, null],
      ],
    );
  });

  test('a report-level status that contradicts the settled defects is refused', async () => {
    const r = await report(2);
    const [d1] = await defectIds(r.id);
    assertError(
      await put(r.id, { status: 'harmless', defect_statuses: [{ status: 'repaired', resolved_defects: [d1] }] }),
      400,
      'status cannot be harmless: with its defects settled the report is corrected; change the defects with defect_statuses',
    );
    assert.equal((await put(r.id, { status: 'harmless' })).body.inspection_report.status, 'harmless');
    assertError(
      await put(r.id, { status: 'corrected' }),
      400,
      'status cannot be corrected: with its defects settled the report is harmless; change the defects with defect_statuses',
    );
    assert.equal((await read(r.id)).status, 'harmless');
  });

  test('reopening a defect clears the sign-off', async () => {
    const r = await report(2);
    const [d1] = await defectIds(r.id);
    assert.equal((await put(r.id, { status: 'corrected' })).body.inspection_report.status, 'corrected');
    const res = await put(r.id, { defect_statuses: [{ status: 'open', resolved_defects: [d1] }] });
    assert.equal(res.body.inspection_report.status, 'unknown');
    assert.deepEqual(
      [res.body.inspection_report.mechanic, res.body.inspection_report.mechanic_signed_at],
      [null, null],
    );
  });

  test('external_ids_attributes replaces the external ids; lookup follows; [] clears them', async () => {
    const r = await report(0, { external_ids: [{ external_id: 'OLD', integration_name: 'tms' }] });
    const res = await put(r.id, {
      external_ids_attributes: [
        { external_id: ' NEW-1 ', integration_name: 'tms' },
        { external_id: 'Q-9', integration_name: 'qa' },
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.inspection_report.external_ids, [
      { external_id: 'Q-9', integration_name: 'qa' },
      { external_id: 'NEW-1', integration_name: 'tms' },
    ]);
    assert.equal(res.body.inspection_report.status, 'satisfactory', 'a report without defects stays satisfactory');
    const found = await t.call({
      method: 'GET',
      url: '/v1/inspection_reports/lookup_by_external_id?external_id=NEW-1&integration_name=tms',
    });
    assert.equal(found.body.inspection_report.id, r.id);
    assertError(
      await t.call({
        method: 'GET',
        url: '/v1/inspection_reports/lookup_by_external_id?external_id=OLD&integration_name=tms',
      }),
      404,
    );
    const cleared = await put(r.id, { external_ids_attributes: [] });
    assert.deepEqual(cleared.body.inspection_report.external_ids, []);
  });

  test('bad input is 400 or 404 with the field named, and changes nothing', async () => {
    const r = await report(2, { external_ids: [{ external_id: 'KEEP', integration_name: 'tms' }] });
    const taken = await report(0, { external_ids: [{ external_id: 'TAKEN', integration_name: 'tms' }] });
    const clean = await report(0);
    const [d1] = await defectIds(r.id);
    const [theirs] = await defectIds((await report(1)).id);
    const theirAdmin = await createUser(t, { role: 'admin' }, other);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const before = await read(r.id);
    const eventsBefore = (await events(r.id)).length;
    const cases: Array<[number, unknown, number, string]> = [
      [
        r.id,
        {},
        400,
        'nothing to update: send external_ids_attributes, status, defect_statuses or the mechanic sign-off fields',
      ],
      [r.id, { status: 'unknown' }, 400, 'status must be one of: corrected, harmless'],
      [r.id, { status: 5 }, 400, 'status must be a string'],
      [
        r.id,
        { mechanic_id: mech.id },
        400,
        `mechanic_id cannot be set: the report still has open defects (${d1}, ${d1 + 1}); settle them with status or defect_statuses`,
      ],
      [clean.id, { status: 'corrected' }, 400, 'status cannot be corrected: the report has no defects'],
      [
        clean.id,
        { mechanic_signed_at: new Date().toISOString() },
        400,
        'mechanic_signed_at cannot be set: the report has no defects, so there is nothing for a mechanic to sign off',
      ],
      [
        r.id,
        { status: 'corrected', mechanic_id: driver.id },
        400,
        `mechanic_id must name an admin or fleet user; user ${driver.id} is a driver`,
      ],
      [r.id, { status: 'corrected', mechanic_id: 987654 }, 404, 'mechanic_id: user 987654 not found'],
      [r.id, { status: 'corrected', mechanic_id: theirAdmin.id }, 404, `mechanic_id: user ${theirAdmin.id} not found`],
      [r.id, { status: 'corrected', mechanic_signed_at: future }, 400, 'mechanic_signed_at must not be in the future'],
      [
        r.id,
        { status: 'corrected', mechanic_signed_at: '2001-01-01T00:00:00Z' },
        400,
        'mechanic_signed_at must not be before the inspection (time)',
      ],
      [
        r.id,
        { status: 'corrected', mechanic_signed_at: 'today' },
        400,
        'mechanic_signed_at must be an ISO-8601 datetime with a time zone, e.g. 2026-03-01T08:00:00Z, got "today"',
      ],
      [
        r.id,
        { defect_statuses: [{ status: 'repaired', resolved_defects: [d1, theirs] }] },
        404,
        `defect_statuses[0].resolved_defects[1]: defect ${theirs} of inspection report ${r.id} not found`,
      ],
      [
        r.id,
        { defect_statuses: [{ status: 'fixed', resolved_defects: [d1] }] },
        400,
        'defect_statuses[0].status must be one of: open, repaired, no_repair_needed',
      ],
      [
        r.id,
        { defect_statuses: { status: 'repaired', resolved_defects: [] } },
        400,
        'defect_statuses[0].resolved_defects must have at least 1 item',
      ],
      [r.id, { defect_statuses: [{ status: 'repaired' }] }, 400, 'defect_statuses[0].resolved_defects is required'],
      [r.id, { defect_statuses: 'all' }, 400, 'defect_statuses must be an array'],
      [
        r.id,
        { external_ids_attributes: [{ external_id: 'TAKEN', integration_name: 'tms' }] },
        400,
        `external_id "TAKEN" of integration "tms" already belongs to inspection report ${taken.id}`,
      ],
      [
        r.id,
        {
          external_ids_attributes: [
            { external_id: 'A', integration_name: 'x' },
            { external_id: 'B', integration_name: 'x' },
          ],
        },
        400,
        'external_ids_attributes[1].integration_name "x" appears more than once',
      ],
      [987654, { status: 'corrected' }, 404, 'inspection report 987654 not found'],
    ];
    for (const [id, payload, status, message] of cases) assertError(await put(id, payload), status, message);
    assertError(
      await t.call({
        method: 'PUT',
        url: `/v1/inspection_reports/${r.id}`,
        payload: 'status=corrected',
        headers: { 'content-type': 'text/plain' },
      }),
      400,
    );
    assert.deepEqual(await read(r.id), before, 'the report is unchanged');
    assert.equal((await events(r.id)).length, eventsBefore, 'no event recorded');
  });

  test("tenant isolation: another company's PUT is 404 and changes nothing", async () => {
    const r = await report(1);
    const before = await read(r.id);
    assertError(await put(r.id, { status: 'corrected' }, { as: other }), 404, `inspection report ${r.id} not found`);
    assertError(
      await t.call({
        method: 'PUT',
        url: `/v2/inspection_reports/${r.id}`,
        payload: { external_ids_attributes: [] },
        as: other,
      }),
      404,
    );
    assert.deepEqual(await read(r.id), before);
  });
});
