/**
 * The documented members of a document (docs/records.md): category, ref_no, notes, doc_date,
 * doc_fields, doc_time, document_form_id and uploader, next to ours. Exact bodies for the JSON
 * (two-step) and multipart creates and for an update; doc_date follows doc_time in X-Time-Zone unless
 * sent; doc_fields is the JSON text of an object; refusals change nothing.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, createUser, createVehicle } from '../../http/fixtures.js';
import { summaryOf } from '../vehicles/vehicle-bodies.js';
import { PDF, blobEnv, multipart } from '../../http/record-fixtures.js';

eachDialect('documents: documented members', (dialect) => {
  const blobs = blobEnv();
  const getApp = useApp(dialect, blobs.env);
  let t: TestApp;
  let admin: any;
  let boss: any;
  let driver: any;
  let truck: any;

  before(async () => {
    t = await getApp();
    admin = await createUser(t, { role: 'admin', first_name: 'Ada', last_name: 'Admin' });
    boss = await createUser(t, { role: 'admin', first_name: 'Bo', last_name: 'Boss' });
    driver = await createUser(t, { first_name: 'Dee', last_name: 'Driver' });
    truck = await createVehicle(t, { number: 'DOC-1', make: 'Volvo' });
  });

  const uploader = (u: any, deactivated_at: string | null = null) => ({
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    role: u.role,
    deactivated_at,
  });
  const truckSummary = () => ({
    id: truck.id,
    number: 'DOC-1',
    year: null,
    make: 'Volvo',
    model: null,
    vin: null,
    metric_units: false,
  });

  test('JSON create (the documented body): 201 with every member, the uploader the acting user', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/documents',
      headers: { 'X-User-Id': String(boss.id) },
      payload: {
        name: 'bill of lading',
        doc_date: '2022-06-08',
        category: 'dispatch',
        doc_type: 'pdf',
        driver_id: driver.id,
        vehicle_id: truck.id,
        doc_time: '2022-06-08T21:54:56Z',
        ref_no: 'BOL-77',
        notes: 'dock 4',
        document_form_id: 12,
        doc_fields: { seal: 'S-1', pallets: 14 },
        file_name: 'bol.pdf',
        content_type: 'application/pdf',
      },
    });
    assert.equal(res.status, 201, res.raw);
    const d = res.body.document;
    assert.deepEqual(res.body, {
      document: {
        id: d.id,
        name: 'bill of lading',
        doc_type: 'pdf',
        notes: 'dock 4',
        status: 'pending',
        doc_time: '2022-06-08T21:54:56Z',
        driver: summaryOf(driver),
        vehicle: truckSummary(),
        file_name: 'bol.pdf',
        content_type: 'application/pdf',
        size_bytes: null,
        sha256: null,
        download_url: null,
        upload_url: d.upload_url,
        created_at: d.created_at,
        updated_at: d.updated_at,
        category: 'dispatch',
        ref_no: 'BOL-77',
        doc_date: '2022-06-08',
        doc_fields: '{"seal":"S-1","pallets":14}',
        document_form_id: 12,
        uploader: uploader(boss),
      },
    });
    const listed = await t.call({ method: 'GET', url: `/v1/documents?per_page=100` });
    const item = listed.body.documents.find((x: any) => x.document.id === d.id).document;
    assert.deepEqual(item, { ...d, upload_url: null });
  });

  test('multipart create: the same members as text fields; doc_date is the day of doc_time in X-Time-Zone', async () => {
    const form = multipart(
      {
        category: 'notes',
        ref_no: 'R-1',
        doc_time: '2024-03-01T03:30:00Z',
        doc_fields: '{"a": 1}',
        document_form_id: '7',
      },
      [{ name: 'bol.pdf', type: 'application/pdf', data: PDF }],
    );
    const res = await t.call({
      method: 'POST',
      url: '/v1/documents',
      payload: form.payload,
      headers: { ...form.headers, 'X-Time-Zone': 'America/Chicago' },
    });
    assert.equal(res.status, 201, res.raw);
    const d = res.body.document;
    assert.deepEqual(
      [d.category, d.ref_no, d.doc_time, d.doc_date, d.doc_fields, d.document_form_id, d.uploader],
      ['notes', 'R-1', '2024-02-29T21:30:00-06:00', '2024-02-29', '{"a":1}', 7, uploader(admin)],
    );
  });

  test('PUT changes what it sends; doc_time alone moves doc_date; an uploader deactivated later shows when', async () => {
    const made = await t.call({
      method: 'POST',
      url: '/v1/documents',
      headers: { 'X-User-Id': String(boss.id) },
      payload: { file_name: 'x.pdf', content_type: 'application/pdf', doc_time: '2024-05-01T12:00:00Z' },
    });
    const id = made.body.document.id;
    assert.equal(made.body.document.doc_date, '2024-05-01');
    let res = await t.call({
      method: 'PUT',
      url: `/v1/documents/${id}`,
      payload: { doc_time: '2024-05-03T12:00:00Z', category: 'receipts', doc_fields: '{"total": "12.50"}' },
    });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(
      [res.body.document.doc_date, res.body.document.category, res.body.document.doc_fields],
      ['2024-05-03', 'receipts', '{"total":"12.50"}'],
    );
    res = await t.call({
      method: 'PUT',
      url: `/v1/documents/${id}`,
      payload: { doc_date: '2024-04-30', doc_fields: null, ref_no: '' },
    });
    assert.deepEqual(
      [res.body.document.doc_date, res.body.document.doc_time, res.body.document.doc_fields, res.body.document.ref_no],
      ['2024-04-30', '2024-05-03T12:00:00Z', null, null],
    );
    const off = await t.call({ method: 'PUT', url: `/v1/users/${boss.id}`, payload: { status: 'deactivated' } });
    assert.equal(off.status, 200, off.raw);
    res = await t.call({ method: 'GET', url: `/v1/documents/${id}` });
    assert.deepEqual(res.body.document.uploader, uploader(boss, off.body.user.updated_at));
  });

  test('a doc_fields that is not a JSON object, a bad doc_date, a long category → 400 naming it, nothing changes', async () => {
    const made = await t.call({
      method: 'POST',
      url: '/v1/documents',
      payload: { file_name: 'y.pdf', content_type: 'application/pdf' },
    });
    const id = made.body.document.id;
    const before = (await t.call({ method: 'GET', url: `/v1/documents/${id}` })).body;
    assertError(
      await t.call({ method: 'PUT', url: `/v1/documents/${id}`, payload: { doc_fields: 'not json' } }),
      400,
      'doc_fields must be a JSON object (or the JSON text of one)',
    );
    assertError(
      await t.call({ method: 'PUT', url: `/v1/documents/${id}`, payload: { doc_fields: '[1,2]' } }),
      400,
      'doc_fields must be a JSON object (or the JSON text of one)',
    );
    assertError(
      await t.call({ method: 'PUT', url: `/v1/documents/${id}`, payload: { doc_date: '2024-02-30' } }),
      400,
      /doc_date/,
    );
    assertError(
      await t.call({ method: 'PUT', url: `/v1/documents/${id}`, payload: { category: 'c'.repeat(65) } }),
      400,
      /category/,
    );
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/documents/${id}` })).body, before);
  });
});
