/**
 * The two-step document upload of the real API: POST JSON → a pending document with a one-time
 * upload_url; PUT the file there; PUT /v2/documents/:id {"status": ...}. Refused uploads store no file.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { assertError, createUser, totalOf } from '../../http/fixtures.js';
import { DOCUMENT_KEYS, PDF, blobEnv, filesIn } from '../../http/record-fixtures.js';

const MAX = 2048;

eachDialect('documents: two-step upload', (dialect) => {
  const blobs = blobEnv({
    DOCUMENT_MAX_BYTES: String(MAX),
    DOCUMENT_CONTENT_TYPES: 'application/pdf, image/png',
    PUBLIC_URL: 'https://fleet.example.com',
  });
  const getApp = useApp(dialect, blobs.env);
  let t: TestApp;
  let other: TestCompany;
  let driver: any;

  before(async () => {
    t = await getApp();
    driver = await createUser(t);
    other = await t.newCompany('Other Co');
  });

  async function pending(fields: Record<string, unknown> = {}) {
    const res = await t.call({
      method: 'POST',
      url: '/v1/documents',
      payload: { name: 'POD', file_name: 'pod.pdf', content_type: 'application/pdf', ...fields },
    });
    assert.equal(res.status, 201, res.raw);
    const d = res.body.document;
    return { doc: d, path: new URL(d.upload_url).pathname };
  }

  /** PUT raw bytes to an upload URL, with no API credential. */
  const upload = (
    path: string,
    data: Buffer | string,
    headers: Record<string, string> = { 'content-type': 'application/pdf' },
  ) =>
    t.app
      .inject({ method: 'PUT', url: path, payload: data, headers })
      .then((r) => ({ status: r.statusCode, body: JSON.parse(r.body || 'null'), raw: r.body }));

  test('POST JSON → 201 pending document with a one-time upload_url and no download_url', async () => {
    const { doc } = await pending({
      driver_id: driver.id,
      doc_time: '2024-06-01T10:00:00Z',
      doc_type: 'proof_of_delivery',
    });
    assert.deepEqual(Object.keys(doc), DOCUMENT_KEYS);
    assert.equal(doc.status, 'pending');
    assert.match(doc.upload_url, /^https:\/\/fleet\.example\.com\/uploads\/documents\/[A-Za-z0-9_-]{43}$/);
    assert.equal(doc.download_url, null);
    assert.equal(doc.file_name, 'pod.pdf');
    assert.equal(doc.content_type, 'application/pdf');
    assert.equal(doc.size_bytes, null);
    assert.equal(doc.driver.id, driver.id);
    assert.equal(doc.doc_time, '2024-06-01T10:00:00Z');
    const again = (await t.call({ method: 'GET', url: `/v1/documents/${doc.id}` })).body.document;
    assert.equal(again.upload_url, null, 'the upload URL is shown once');
    assertError(
      await t.call({ method: 'GET', url: `/v1/documents/${doc.id}/download` }),
      404,
      `file of document ${doc.id} not found`,
    );
  });

  test('PUT the file to upload_url → completed, downloadable; the URL then stops working', async () => {
    const { doc, path } = await pending();
    const res = await upload(path, PDF);
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.raw, '{"success":true}');
    const done = (await t.call({ method: 'GET', url: `/v1/documents/${doc.id}` })).body.document;
    assert.equal(done.status, 'completed');
    assert.equal(done.size_bytes, PDF.length);
    assert.equal(done.download_url, `https://fleet.example.com/v1/documents/${doc.id}/download`);
    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/documents/${doc.id}/download`,
      headers: t.company.headers,
    });
    assert.deepEqual(file.rawPayload, PDF);
    assertError(await upload(path, PDF), 404, 'upload URL not found: it is unknown, already used or expired');
    const v2 = await t.call({ method: 'PUT', url: `/v2/documents/${doc.id}`, payload: { status: 'completed' } });
    assert.equal(v2.status, 200, v2.raw);
    assert.equal(v2.body.document.status, 'completed');
  });

  test('an upload without Content-Type, or as application/octet-stream, takes the declared type', async () => {
    const { doc, path } = await pending();
    assert.equal((await upload(path, PDF, {})).status, 200);
    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/documents/${doc.id}/download`,
      headers: t.company.headers,
    });
    assert.equal(file.headers['content-type'], 'application/pdf');
    const second = await pending();
    assert.equal((await upload(second.path, PDF, { 'content-type': 'application/octet-stream' })).status, 200);
  });

  test('refused uploads store no file and leave the document pending with a working URL', async () => {
    const { doc, path } = await pending();
    const files = filesIn(blobs.dir);
    assertError(
      await upload(path, PDF, { 'content-type': 'image/png' }),
      400,
      'Content-Type must be application/pdf, as declared when the document was created',
    );
    assertError(await upload(path, Buffer.alloc(MAX + 1, 1)), 400, `file is larger than the limit of ${MAX} bytes`);
    assertError(await upload(path, ''), 400, 'file is empty');
    assert.deepEqual(filesIn(blobs.dir), files, 'no file stored');
    assert.equal((await t.call({ method: 'GET', url: `/v1/documents/${doc.id}` })).body.document.status, 'pending');
    assert.equal((await upload(path, PDF)).status, 200, 'the URL still works after refusals');
  });

  test('unknown, malformed and expired tokens are refused', async () => {
    assertError(await upload(`/uploads/documents/${'A'.repeat(43)}`, PDF), 404, /upload URL not found/);
    assertError(await upload('/uploads/documents/short', PDF), 400, /token/);
    const { doc, path } = await pending();
    await t.db.kysely
      .updateTable('documents')
      .set({ upload_expires_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', doc.id)
      .execute();
    assertError(await upload(path, PDF), 404, /upload URL not found/);
  });

  test('PUT /v2 status: completed before the upload is refused; failed ends the upload', async () => {
    const { doc, path } = await pending();
    const url = `/v2/documents/${doc.id}`;
    assertError(
      await t.call({ method: 'PUT', url, payload: { status: 'completed' } }),
      400,
      `document ${doc.id} has no file yet: upload it before marking it completed`,
    );
    let res = await t.call({ method: 'PUT', url, payload: { status: 'failed' } });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.document.status, 'failed');
    assertError(await upload(path, PDF), 404, /upload URL not found/);
    assertError(await t.call({ method: 'PUT', url, payload: { status: 'completed' } }), 400, /has no file yet/);
    res = await t.call({ method: 'GET', url: '/v1/documents?status=failed' });
    assert.deepEqual(
      res.body.documents.map((w: any) => w.document.id),
      [doc.id],
    );
  });

  test('bad two-step creates are 400 and store nothing', async () => {
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [
        { file_name: 'x.gif', content_type: 'image/gif' },
        'content_type image/gif is not accepted; accepted types: application/pdf, image/png',
      ],
      [{ file_name: 'x.pdf' }, /^content_type is required/],
      [{ content_type: 'application/pdf' }, 'file_name is required'],
      [{ file_name: '  ', content_type: 'application/pdf' }, 'file_name is required'],
      [{ file_name: 'x.pdf', content_type: 'application/pdf', doc_time: 'soon' }, 'doc_time has an invalid format'],
      [
        { file_name: 'x.pdf', content_type: 'application/pdf', vehicle_id: 999999 },
        'vehicle_id: vehicle 999999 not found',
      ],
      [{ file_name: 5, content_type: 'application/pdf' }, 'file_name must be a string'],
    ];
    const before = await totalOf(t, '/v1/documents');
    for (const [payload, message] of cases) {
      const res = await t.call({ method: 'POST', url: '/v1/documents', payload: payload as any });
      assertError(res, String(message).includes('vehicle 999999') ? 404 : 400, message);
    }
    assert.equal(await totalOf(t, '/v1/documents'), before);
  });

  test("another company's upload URL still uploads only into the document it was issued for", async () => {
    const { doc, path } = await pending();
    assertError(await t.call({ method: 'GET', url: `/v1/documents/${doc.id}`, as: other }), 404, /not found/);
    assert.equal((await upload(path, PDF)).status, 200);
    assertError(await t.call({ method: 'GET', url: `/v1/documents/${doc.id}/download`, as: other }), 404, /not found/);
  });
});
