/**
 * A form's two ids (docs/dispatch-forms.md): the integer `id` and the UUID `form_id`. Stops store and
 * answer UUIDs but take either; entries are recorded by either; the form_upserted webhook body is the
 * /v1/forms object.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, assertList } from '../../http/fixtures.js';
import { createDispatch, dispatchBody, world, type World } from './fixtures.js';
import { createForm, recordFormEntry } from '../../../src/domain/dispatch/forms.js';
import { renderBodies } from '../../../src/events/webhooks/payloads.js';

eachDialect('form ids', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let w: World;
  let pod: any;

  before(async () => {
    t = await getApp();
    w = await world(t);
    pod = await createForm(
      t.db,
      { companyId: t.company.id },
      {
        name: 'arrive_consignee',
        title: 'Arrive Consignee',
        available_for_driver: true,
        fields: [
          {
            name: 'signed_by',
            label: 'Signed by',
            type: 'string',
            required: true,
            length: 255,
            default_value: 'receiver',
          },
          { name: 'seal', label: 'Seal', type: 'string', required: false, position: 5 },
        ],
      },
    );
  });

  test('title, available_for_driver, and each field’s position, length and default_value are answered', async () => {
    const f = assertList(await t.call({ method: 'GET', url: '/v1/forms?per_page=100' }), 'forms', 'form').find(
      (x) => x.id === pod.seq,
    );
    assert.deepEqual(
      [f.form_id, f.title, f.name, f.available_for_driver],
      [pod.id, 'Arrive Consignee', 'arrive_consignee', true],
    );
    assert.deepEqual(f.definition, [
      {
        label: 'Signed by',
        name: 'signed_by',
        position: 1,
        type: 'string',
        length: 255,
        required: true,
        default_value: 'receiver',
      },
      { label: 'Seal', name: 'seal', position: 5, type: 'string', length: null, required: false, default_value: null },
    ]);
  });

  test('stop form_ids take the UUID or the integer id and answer UUIDs; an unknown one is a 400 naming it', async () => {
    const d = await createDispatch(t, w, {
      shipper_form_ids: [pod.seq],
      consignee_form_ids: [pod.id],
      dispatch_stops: [{ vendor_id: 'M', dispatch_location_id: w.locations[2].id, form_ids: [pod.seq, pod.id] }],
    });
    assert.deepEqual(
      [d.shipper_form_ids, d.consignee_form_ids, d.dispatch_stops[0].dispatch_stop.form_ids],
      [[pod.id], [pod.id], [pod.id, pod.id]],
    );
    const res = await t.call({
      method: 'POST',
      url: '/v2/dispatches',
      payload: dispatchBody(w, { consignee_form_ids: [pod.id, 999999] }),
    });
    assertError(res, 400, 'consignee_form_ids[1] names no form of this company (999999)');
    const other = await t.newCompany('Elsewhere');
    const theirs = await createForm(t.db, { companyId: other.id }, { name: 'Theirs' });
    assertError(
      await t.call({
        method: 'POST',
        url: '/v1/dispatches',
        payload: dispatchBody(w, { shipper_form_ids: [theirs.seq] }),
      }),
      400,
      `shipper_form_ids[0] names no form of this company (${theirs.seq})`,
    );
  });

  test('an entry is recorded by either id (a device may send the integer as a string) and names the form by UUID in /v2', async () => {
    const tenant = { companyId: t.company.id };
    const byInt = await recordFormEntry(t.db, tenant, {
      form_id: pod.seq,
      driver_id: w.driver.id,
      entry: { signed_by: 'A' },
    });
    const byDigits = await recordFormEntry(t.db, tenant, {
      form_id: String(pod.seq),
      driver_id: w.driver.id,
      entry: { signed_by: 'B' },
    });
    const byUuid = await recordFormEntry(t.db, tenant, {
      form_id: pod.id,
      driver_id: w.driver.id,
      entry: { signed_by: 'C' },
    });
    assert.deepEqual([byInt.form_id, byDigits.form_id, byUuid.form_id], [pod.id, pod.id, pod.id]);
    const ids = new Set([byInt.id, byDigits.id, byUuid.id]);
    const v1 = assertList(
      await t.call({ method: 'GET', url: '/v1/form_entries?per_page=100' }),
      'form_entries',
      'form_entry',
    ).filter((e) => ids.has(e.id));
    const v2 = assertList(
      await t.call({ method: 'GET', url: '/v2/form_entries?per_page=100' }),
      'form_entries',
      'form_entry',
    ).filter((e) => ids.has(e.id));
    assert.deepEqual(
      v1.map((e) => e.form_id),
      [pod.seq, pod.seq, pod.seq],
    );
    assert.deepEqual(
      v2.map((e) => e.form_id),
      [pod.id, pod.id, pod.id],
    );
  });

  test('the form_upserted webhook body is the /v1/forms object', async () => {
    const row = await t.db.kysely
      .selectFrom('domain_events')
      .selectAll()
      .where('action', '=', 'form_upserted')
      .where('subject_id', '=', pod.id)
      .executeTakeFirstOrThrow();
    const bodies = await renderBodies({ db: t.db, publicUrl: 'http://127.0.0.1' }, [
      { ...row, data: JSON.parse(row.data) },
    ]);
    const listed = assertList(await t.call({ method: 'GET', url: '/v1/forms?per_page=100' }), 'forms', 'form').find(
      (x) => x.id === pod.seq,
    );
    assert.deepEqual(JSON.parse(bodies.get(row.id)!), { action: 'form_upserted', trigger: 'created', ...listed });
  });
});
