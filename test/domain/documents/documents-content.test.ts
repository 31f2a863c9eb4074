/**
 * A document file's bytes must agree with its declared type (docs/records.md, "Content types"): binary
 * formats recognized by file-type, text checked whole. A mismatch is a 400 naming the field and both
 * types, and stores nothing (no row, no file; a pending two-step document stays pending). A generic
 * declaration (application/octet-stream) takes the recognized type when it is accepted.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, totalOf } from '../../http/fixtures.js';
import { HTML, JPEG, PDF, PNG, blobEnv, filesIn, multipart } from '../../http/record-fixtures.js';

const ACCEPTED = 'application/pdf, image/jpeg, image/png, image/gif, image/heic, image/tiff, image/webp, text/plain';
const RANDOM = Buffer.from([0x13, 0x37, 0x00, 0xfe, 0x01, 0x99, 0x42, 0x00, 0x7f, 0x80]);

eachDialect('documents: content detection', (dialect) => {
  const blobs = blobEnv({ PUBLIC_URL: 'https://fleet.example.com' });
  const getApp = useApp(dialect, blobs.env);
  let t: TestApp;
  before(async () => {
    t = await getApp();
  });

  const post = (name: string, type: string, data: Buffer | string) =>
    t.call({ method: 'POST', url: '/v1/documents', ...multipart({}, [{ name, type, data }]) });

  /** The exact error body, and neither a new row nor a new file. */
  async function refused(request: () => Promise<{ status: number; body: any }>, message: string) {
    const rows = await totalOf(t, '/v1/documents');
    const files = filesIn(blobs.dir);
    const res = await request();
    assertError(res, 400, message);
    assert.deepEqual(res.body, { error_message: message });
    assert.equal(await totalOf(t, '/v1/documents'), rows, 'no row');
    assert.deepEqual(filesIn(blobs.dir), files, 'no file');
  }

  test('a PNG declared image/png is stored as image/png, byte for byte', async () => {
    const before = filesIn(blobs.dir).length;
    const res = await post('scan.png', 'image/png', PNG);
    assert.equal(res.status, 201, res.raw);
    const d = res.body.document;
    assert.equal(d.content_type, 'image/png');
    assert.equal(d.size_bytes, PNG.length);
    assert.equal(d.sha256, createHash('sha256').update(PNG).digest('hex'));
    assert.equal(filesIn(blobs.dir).length, before + 1);
    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/documents/${d.id}/download`,
      headers: t.company.headers,
    });
    assert.deepEqual(file.rawPayload, PNG);
    assert.equal(file.headers['content-type'], 'image/png');
  });

  test('bytes of another type than the declared one → 400 naming both, nothing stored', async () => {
    await refused(
      () => post('scan.png', 'image/png', HTML),
      'file: the bytes are text/html, not the declared image/png',
    );
    await refused(
      () => post('photo.jpg', 'image/jpeg', PDF),
      'file: the bytes are application/pdf, not the declared image/jpeg',
    );
    await refused(
      () => post('bol.pdf', 'application/pdf', JPEG),
      'file: the bytes are image/jpeg, not the declared application/pdf',
    );
    await refused(
      () => post('scan.png', 'image/png', RANDOM),
      'file: the bytes are not image/png: no known file type was recognized in them',
    );
    await refused(
      () => post('scan.png', 'image/png', 'just some words'),
      'file: the bytes are text/plain, not the declared image/png',
    );
  });

  test('text/plain: UTF-8 text without NUL bytes, not HTML, not a binary format', async () => {
    const res = await post('notes.txt', 'text/plain', 'Dock 4, gate B — délivré ✓\n');
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.document.content_type, 'text/plain');
    await refused(
      () => post('a.txt', 'text/plain; charset=utf-8', '<p> is a tag\n'),
      'file: the bytes are text/html, not the declared text/plain',
    );
    await refused(
      () => post('a.txt', 'text/plain', Buffer.from('abc\u0000def')),
      'file: the bytes are not text/plain: they contain NUL bytes',
    );
    await refused(
      () => post('a.txt', 'text/plain', Buffer.from([0x61, 0xc3, 0x28, 0x62])),
      'file: the bytes are not text/plain: they are not valid UTF-8',
    );
    await refused(
      () => post('a.txt', 'text/plain', Buffer.from([0x61, 0xe2, 0x82])),
      'file: the bytes are not text/plain: they are not valid UTF-8',
    );
    await refused(() => post('a.txt', 'text/plain', PNG), 'file: the bytes are image/png, not the declared text/plain');
    await refused(
      () => post('page.txt', 'text/plain', HTML),
      'file: the bytes are text/html, not the declared text/plain',
    );
  });

  test('declared application/octet-stream: the recognized type when accepted, else 400', async () => {
    const png = await post('scan', 'application/octet-stream', PNG);
    assert.equal(png.status, 201, png.raw);
    assert.equal(png.body.document.content_type, 'image/png');
    const text = await post('notes', 'application/octet-stream', 'plain words\n');
    assert.equal(text.status, 201, text.raw);
    assert.equal(text.body.document.content_type, 'text/plain');
    await refused(
      () => post('page', 'application/octet-stream', HTML),
      `file: the bytes are text/html, which is not accepted; accepted types: ${ACCEPTED}`,
    );
    await refused(
      () => post('blob', 'application/octet-stream', RANDOM),
      `file: the type of the bytes was not recognized; declare one of: ${ACCEPTED}`,
    );
  });

  test('two-step upload: bytes of another type → 400, no file, the document stays pending and its URL works', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/v1/documents',
      payload: { file_name: 'scan.png', content_type: 'image/png' },
    });
    assert.equal(created.status, 201, created.raw);
    const { id, upload_url } = created.body.document;
    const put = (data: Buffer, type: string) =>
      t.app
        .inject({ method: 'PUT', url: new URL(upload_url).pathname, payload: data, headers: { 'content-type': type } })
        .then((r) => ({ status: r.statusCode, body: r.json() }));
    const files = filesIn(blobs.dir);
    assert.deepEqual(await put(HTML, 'image/png'), {
      status: 400,
      body: { error_message: 'file: the bytes are text/html, not the declared image/png' },
    });
    assert.deepEqual(await put(PDF, 'application/octet-stream'), {
      status: 400,
      body: { error_message: 'file: the bytes are application/pdf, not the declared image/png' },
    });
    assert.deepEqual(filesIn(blobs.dir), files, 'no file');
    assert.equal((await t.call({ method: 'GET', url: `/v1/documents/${id}` })).body.document.status, 'pending');
    assert.deepEqual(await put(PNG, 'image/png'), { status: 200, body: { success: true } });
    const done = (await t.call({ method: 'GET', url: `/v1/documents/${id}` })).body.document;
    assert.equal(done.status, 'completed');
    assert.equal(done.content_type, 'image/png');
  });
});
