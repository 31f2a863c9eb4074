/**
 * Device batches sent with Content-Encoding: gzip are inflated before parsing, within the body limit on
 * both sides; a corrupt body or another encoding is a 400 naming the problem, and stores nothing.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import { at, useRigApp, track, type Rig } from './fixtures.js';

eachDialect('gzip device batches', (dialect) => {
  const setup = useRigApp(dialect);
  let t: TestApp;
  let v: Rig;
  before(async () => ({ t, v } = await setup()));
  const send = async (body: Buffer, encoding: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/device/v1/batches',
      payload: body,
      headers: {
        authorization: `Bearer ${v.device.device_token}`,
        'content-type': 'application/json',
        'content-encoding': encoding,
      },
    });
    return { status: res.statusCode, body: res.json() as any };
  };
  const stored = async () =>
    (await t.db.kysely.selectFrom('telemetry_records').select('id').where('device_id', '=', v.device.id).execute())
      .length;
  const records = track({ fromS: 0, toS: 90, kph: 50 }).map((r, i) => ({ ...r, seq: i + 1 }));

  test('a gzip body is answered as the same body uncompressed', async () => {
    const res = await send(gzipSync(JSON.stringify({ records })), 'gzip');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.accepted, res.body.duplicates, res.body.rejected], [records.length, 0, 0]);
    const again = await send(Buffer.from(JSON.stringify({ records })), 'identity');
    assert.deepEqual([again.body.accepted, again.body.duplicates], [0, records.length]);
  });

  test('corrupt gzip, another encoding, or a body that inflates past the limit: 400, nothing stored', async () => {
    const before = await stored();
    const fresh = [{ type: 'location', time: at(500), lat: 39.8, lon: -89.6, seq: 1000 }];
    const corrupt = gzipSync(JSON.stringify({ records: fresh })).subarray(0, 20);
    assert.deepEqual(await send(corrupt, 'gzip'), {
      status: 400,
      body: { error_message: 'body is not valid gzip (Content-Encoding: gzip)' },
    });
    assert.deepEqual(await send(Buffer.from(JSON.stringify({ records: fresh })), 'br'), {
      status: 400,
      body: {
        error_message:
          'Content-Encoding br is not supported: send the body as it is, or gzip it (Content-Encoding: gzip)',
      },
    });
    // 3 MiB of spaces inside valid JSON compress to a few KiB: over the 1 MiB limit once inflated.
    const bomb = gzipSync(`{"records": ${JSON.stringify(fresh)}${' '.repeat(3 * 1024 * 1024)}}`);
    assert.ok(bomb.length < 10_000);
    assert.deepEqual(await send(bomb, 'gzip'), {
      status: 400,
      body: { error_message: 'request body is larger than the limit' },
    });
    assert.equal(await stored(), before);
  });
});
