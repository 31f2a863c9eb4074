/** /v1/documents: multipart upload with real content, download, list filters, PUT, DELETE; refusals leave no row and no file; tenant isolation. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import {
  DATETIME,
  USER_SUMMARY_KEYS,
  assertError,
  assertList,
  createUser,
  createVehicle,
  totalOf,
} from '../../http/fixtures.js';
import { scoped } from '../dispatch/fixtures.js';
import {
  DOCUMENT_KEYS,
  JPEG,
  PDF,
  PNG,
  VEHICLE_SUMMARY_KEYS,
  blobEnv,
  eventsOf,
  filesIn,
  multipart,
  uploadDocument,
  type FilePart,
} from '../../http/record-fixtures.js';

const MAX = 4096;

eachDialect('documents', (dialect) => {
  const blobs = blobEnv({ DOCUMENT_MAX_BYTES: String(MAX) });
  const getApp = useApp(dialect, blobs.env);
  let t: TestApp;
  let other: TestCompany;
  let driver: any;
  let admin: any;
  let truck: any;
  let theirTruck: any;

  before(async () => {
    t = await getApp();
    driver = await createUser(t, { first_name: 'Doc', last_name: 'Driver' });
    admin = await createUser(t, { role: 'admin' });
    truck = await createVehicle(t, { number: 'D-1' });
    other = await t.newCompany('Other Co');
    theirTruck = await createVehicle(t, {}, other);
  });

  const post = (
    fields: Record<string, string>,
    files: FilePart[] = [{ name: 'bol.pdf', type: 'application/pdf', data: PDF }],
    after: Record<string, string> = {},
  ) => t.call({ method: 'POST', url: '/v1/documents', ...multipart(fields, files, after) });

  /** A refused upload: the error, and neither a new row nor a new file. */
  async function refused(
    request: () => Promise<{ status: number; body: any }>,
    status: number,
    message: string | RegExp,
  ) {
    const rows = await totalOf(t, '/v1/documents');
    const files = filesIn(blobs.dir);
    assertError(await request(), status, message);
    assert.equal(await totalOf(t, '/v1/documents'), rows, 'no row');
    assert.deepEqual(filesIn(blobs.dir), files, 'no file');
  }

  test('multipart POST → 201, full key set in order, file stored, doc_time and summaries', async () => {
    const res = await post({
      name: 'Bill of lading',
      doc_type: 'bill_of_lading',
      notes: 'dock 4',
      doc_time: '2024-03-01T08:30:00Z',
      driver_id: String(driver.id),
      vehicle_id: String(truck.id),
    });
    assert.equal(res.status, 201, res.raw);
    assert.deepEqual(Object.keys(res.body), ['document']);
    const d = res.body.document;
    assert.deepEqual(Object.keys(d), DOCUMENT_KEYS);
    assert.equal(d.name, 'Bill of lading');
    assert.equal(d.doc_type, 'bill_of_lading');
    assert.equal(d.notes, 'dock 4');
    assert.equal(d.status, 'completed');
    assert.equal(d.doc_time, '2024-03-01T08:30:00Z');
    assert.deepEqual(Object.keys(d.driver), USER_SUMMARY_KEYS);
    assert.equal(d.driver.id, driver.id);
    assert.deepEqual(Object.keys(d.vehicle), VEHICLE_SUMMARY_KEYS);
    assert.equal(d.vehicle.id, truck.id);
    assert.equal(d.file_name, 'bol.pdf');
    assert.equal(d.content_type, 'application/pdf');
    assert.equal(d.size_bytes, PDF.length);
    assert.equal(d.sha256, createHash('sha256').update(PDF).digest('hex'));
    assert.equal(d.download_url, `http://127.0.0.1:3000/v1/documents/${d.id}/download`);
    assert.equal(d.upload_url, null);
    assert.match(d.created_at, DATETIME);
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/documents/${d.id}` })).body, { document: d });
    assert.equal(filesIn(blobs.dir).length, 1);
    assert.deepEqual((await eventsOf(t, 'document')).at(-1), {
      action: 'document_upserted',
      trigger: 'created',
      subject_id: String(d.id),
    });
  });

  test('defaults: name is the file name, doc_time the upload time; fields may follow the file', async () => {
    const before = Date.now() - 1000;
    const res = await post({}, [{ name: 'scan.png', type: 'image/png', data: PNG }], { notes: 'sent after the file' });
    assert.equal(res.status, 201, res.raw);
    const d = res.body.document;
    assert.equal(d.name, 'scan.png');
    assert.equal(d.notes, 'sent after the file');
    assert.ok(Date.parse(d.doc_time) >= before && Date.parse(d.doc_time) <= Date.now() + 1000, 'doc_time is now');
    assert.equal(d.driver, null);
    assert.equal(d.vehicle, null);
  });

  test('download returns the exact bytes with type, length and file name', async () => {
    const data = JPEG;
    const d = await uploadDocument(t, { name: 'binary' }, { name: 'frühstück menu.jpg', type: 'image/jpeg', data });
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/documents/${d.id}/download`,
      headers: t.company.headers,
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.rawPayload, data);
    assert.equal(res.headers['content-type'], 'image/jpeg');
    assert.equal(res.headers['content-length'], String(data.length));
    assert.equal(
      res.headers['content-disposition'],
      `attachment; filename="fr_hst_ck menu.jpg"; filename*=UTF-8''${encodeURIComponent('frühstück menu.jpg')}`,
    );
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  test('a file at the size limit is accepted; one byte over is refused', async () => {
    const d = await uploadDocument(t, {}, { name: 'max.txt', type: 'text/plain', data: Buffer.alloc(MAX, 97) });
    assert.equal(d.size_bytes, MAX);
    await refused(
      () => post({}, [{ name: 'big.txt', type: 'text/plain', data: Buffer.alloc(MAX + 1, 97) }]),
      400,
      `file is larger than the limit of ${MAX} bytes`,
    );
    await refused(
      () => post({}, [{ name: 'huge.pdf', type: 'application/pdf', data: Buffer.alloc(MAX * 5, 1) }]),
      400,
      /larger than the limit/,
    );
  });

  test('refused uploads leave no row and no file', async () => {
    const pdf: FilePart[] = [{ name: 'x.pdf', type: 'application/pdf', data: PDF }];
    await refused(
      () => post({}, [{ name: 'x.exe', type: 'application/x-msdownload', data: 'MZ' }]),
      400,
      /^file application\/x-msdownload is not accepted; accepted types: application\/pdf, /,
    );
    await refused(() => post({ name: 'no file' }, []), 400, /file is required/);
    await refused(() => post({}, [{ name: 'x.pdf', type: 'application/pdf', data: '' }]), 400, 'file is empty');
    await refused(
      () => post({}, [...pdf, { name: 'y.pdf', type: 'application/pdf', data: PDF }]),
      400,
      /exactly one file/,
    );
    await refused(
      () => post({}, [{ ...pdf[0], field: 'upload' }]),
      400,
      'file must be sent in the form field "file", not "upload"',
    );
    await refused(() => post({ driver_id: '999999' }, pdf), 404, 'driver_id: user 999999 not found');
    await refused(() => post({}, pdf, { driver_id: String(admin.id) }), 400, /driver_id must name a driver/);
    await refused(
      () => post({ vehicle_id: String(theirTruck.id) }, pdf),
      404,
      `vehicle_id: vehicle ${theirTruck.id} not found`,
    );
    await refused(() => post({}, pdf, { vehicle_id: 'abc' }), 400, 'vehicle_id must be an integer');
    await refused(() => post({}, pdf, { doc_time: 'noon' }), 400, 'doc_time has an invalid format');
    await refused(() => post({}, pdf, { doc_time: '2024-02-31' }), 400, 'doc_time is not a valid date (2024-02-31)');
    await refused(() => post({}, pdf, { name: 'n'.repeat(256) }), 400, 'name must be at most 255 characters long');
    await refused(
      () => t.call({ method: 'POST', url: '/v1/documents', payload: { name: 'json without a file' } }),
      400,
      /file is required/,
    );
  });

  test('GET list: envelope and filters (driver_ids, vehicle_ids, status, doc_time window)', async () => {
    const mine = await uploadDocument(t, { driver_id: String(driver.id), doc_time: '2023-07-04' });
    const hers = await uploadDocument(t, { vehicle_id: String(truck.id), doc_time: '2023-07-05T23:30:00Z' });
    const res = await t.call({ method: 'GET', url: '/v1/documents' });
    const items = assertList(res, 'documents', 'document');
    assert.equal(res.body.pagination.total, items.length);
    for (const d of items) assert.deepEqual(Object.keys(d), DOCUMENT_KEYS);
    const ids = async (q: string, headers: Record<string, string> = {}) =>
      assertList(await t.call({ method: 'GET', url: `/v1/documents?${q}`, headers }), 'documents', 'document').map(
        (d) => d.id,
      );
    assert.ok((await ids(`driver_ids[]=${driver.id}`)).includes(mine.id));
    assert.ok(!(await ids(`driver_ids=${driver.id}`)).includes(hers.id));
    assert.ok((await ids(`vehicle_ids=${truck.id}`)).includes(hers.id));
    assert.deepEqual(await ids('start_date=2023-07-04&end_date=2023-07-05'), [mine.id, hers.id]);
    assert.deepEqual(await ids('start_date=2023-07-05&end_date=2023-07-05'), [hers.id]);
    assert.deepEqual(await ids('start_date=2023-07-06&end_date=2023-07-06', { 'X-Time-Zone': 'Alaska' }), []);
    assert.deepEqual(await ids('start_date=2023-07-05&end_date=2023-07-05', { 'X-Time-Zone': 'Alaska' }), [hers.id]);
    assert.equal((await ids('status=pending')).length, 0);
    assertError(
      await t.call({ method: 'GET', url: '/v1/documents?status=lost' }),
      400,
      /status must be one of: pending, completed, failed/,
    );
    assertError(await t.call({ method: 'GET', url: '/v1/documents?vehicle_ids=x' }), 400, /vehicle_ids/);
    assertError(
      await t.call({ method: 'GET', url: '/v1/documents?end_date=2023-13-01' }),
      400,
      'end_date is not a valid date (2023-13-01)',
    );
  });

  test('PUT changes metadata only as sent; refusals change nothing', async () => {
    const d = await uploadDocument(t, { name: 'before' });
    const url = `/v1/documents/${d.id}`;
    let res = await t.call({
      method: 'PUT',
      url,
      payload: { name: 'after', doc_time: '2022-02-02', vehicle_id: truck.id },
    });
    assert.equal(res.status, 200, res.raw);
    const after = res.body.document;
    assert.equal(after.name, 'after');
    assert.equal(after.doc_time, '2022-02-02T00:00:00Z');
    assert.equal(after.vehicle.id, truck.id);
    for (const k of ['notes', 'doc_type', 'file_name', 'size_bytes', 'sha256', 'status', 'download_url', 'driver'])
      assert.deepEqual(after[k], d[k], k);
    for (const [payload, status, message] of [
      [{ name: '' }, 400, 'name must not be empty'],
      [{ name: 5 }, 400, 'name must be a string'],
      [{ driver_id: 999999 }, 404, 'driver_id: user 999999 not found'],
      [{ vehicle_id: theirTruck.id }, 404, /vehicle_id/],
      [{ status: 'pending' }, 400, /status must be one of: completed, failed/],
      [{ status: 'failed' }, 400, `document ${d.id} is completed; only a pending document can be marked failed`],
      [{ doc_time: '2024-01-01T10:00' }, 400, 'doc_time has an invalid format'],
    ] as const) {
      assertError(await t.call({ method: 'PUT', url, payload: payload as any }), status, message);
    }
    res = await t.call({ method: 'GET', url });
    assert.deepEqual(res.body.document, after);
  });

  test('DELETE removes the row and the file; afterwards 404', async () => {
    const d = await uploadDocument(t, { name: 'to delete' });
    const files = filesIn(blobs.dir);
    const res = await t.call({ method: 'DELETE', url: `/v1/documents/${d.id}` });
    assert.equal(res.status, 200);
    assert.equal(res.raw, '{"success":true}');
    assert.equal(filesIn(blobs.dir).length, files.length - 1, 'the file is gone');
    assertError(await t.call({ method: 'GET', url: `/v1/documents/${d.id}` }), 404, `document ${d.id} not found`);
    assertError(await t.call({ method: 'GET', url: `/v1/documents/${d.id}/download` }), 404, /not found/);
    assertError(await t.call({ method: 'DELETE', url: `/v1/documents/${d.id}` }), 404, /not found/);
    assert.deepEqual((await eventsOf(t, 'document')).at(-1), {
      action: 'document_deleted',
      trigger: null,
      subject_id: String(d.id),
    });
  });

  test("tenant isolation: another company's document id and download URL are 404, and it cannot change or delete them", async () => {
    const d = await uploadDocument(t, { name: 'private' });
    for (const url of [`/v1/documents/${d.id}`, `/v1/documents/${d.id}/download`, new URL(d.download_url).pathname]) {
      assertError(await t.call({ method: 'GET', url, as: other }), 404, `document ${d.id} not found`);
    }
    assertError(
      await t.call({ method: 'PUT', url: `/v1/documents/${d.id}`, payload: { name: 'stolen' }, as: other }),
      404,
      /not found/,
    );
    assertError(
      await t.call({ method: 'PUT', url: `/v2/documents/${d.id}`, payload: { status: 'completed' }, as: other }),
      404,
      /not found/,
    );
    assertError(await t.call({ method: 'DELETE', url: `/v1/documents/${d.id}`, as: other }), 404, /not found/);
    const list = await t.call({ method: 'GET', url: '/v1/documents', as: other });
    assert.deepEqual(assertList(list, 'documents', 'document'), []);
    const mine = await t.call({ method: 'GET', url: `/v1/documents/${d.id}` });
    assert.equal(mine.body.document.name, 'private');
    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/documents/${d.id}/download`,
      headers: t.company.headers,
    });
    assert.deepEqual(file.rawPayload, PDF, 'the file is still there');
  });

  test('scopes: documents.read lists and downloads but cannot upload; documents.manage uploads', async () => {
    const d = await uploadDocument(t);
    const reader = scoped(t.company, 'documents.read');
    assert.equal((await t.call({ method: 'GET', url: `/v1/documents/${d.id}/download`, as: reader })).status, 200);
    assertError(
      await t.call({
        method: 'POST',
        url: '/v1/documents',
        ...multipart({}, [{ name: 'x.pdf', type: 'application/pdf', data: PDF }]),
        as: reader,
      }),
      403,
      /documents\.manage/,
    );
    assertError(
      await t.call({
        method: 'GET',
        url: `/v1/documents/${d.id}/download`,
        as: scoped(t.company, 'fuel_purchases.read'),
      }),
      403,
      /documents\.read/,
    );
    const writer = scoped(t.company, 'documents.manage');
    assert.equal(
      (
        await t.call({
          method: 'POST',
          url: '/v1/documents',
          ...multipart({}, [{ name: 'x.pdf', type: 'application/pdf', data: PDF }]),
          as: writer,
        })
      ).status,
      201,
    );
  });
});
