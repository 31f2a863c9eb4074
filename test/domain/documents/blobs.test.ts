/** The local-disk blob store and the document settings (BLOB_DIR, DOCUMENT_MAX_BYTES, DOCUMENT_CONTENT_TYPES). */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { LocalDiskBlobStore } from '../../../src/storage/blobs/local-disk.js';
import { BlobTooLargeError } from '../../../src/storage/blobs/index.js';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { blobEnv, filesIn } from '../../http/record-fixtures.js';

const read = async (s: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe('LocalDiskBlobStore', () => {
  test('put, exists, open, delete; the size and SHA-256 of what was written', async () => {
    const { dir } = blobEnv();
    const store = new LocalDiskBlobStore(dir);
    const stored = await store.put('documents/1/abc', Readable.from([Buffer.from('hello '), Buffer.from('world')]), {
      maxBytes: 100,
    });
    assert.deepEqual(stored, { size: 11, sha256: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9' });
    assert.equal(await store.exists('documents/1/abc'), true);
    assert.deepEqual(await read((await store.open('documents/1/abc'))!), Buffer.from('hello world'));
    await store.delete('documents/1/abc');
    assert.equal(await store.exists('documents/1/abc'), false);
    assert.equal(await store.open('documents/1/abc'), null);
    await store.delete('documents/1/abc');
  });

  test('a stream over the limit, or one that fails, leaves nothing behind', async () => {
    const { dir } = blobEnv();
    const store = new LocalDiskBlobStore(dir);
    await assert.rejects(
      store.put('a/big', Readable.from([Buffer.alloc(60), Buffer.alloc(60)]), { maxBytes: 100 }),
      BlobTooLargeError,
    );
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    await assert.rejects(store.put('a/broken', failing, { maxBytes: 100 }), /connection reset/);
    assert.deepEqual(filesIn(dir), []);
  });

  test('keys cannot leave the store', async () => {
    const store = new LocalDiskBlobStore(blobEnv().dir);
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a/b.c', 'a//b', '']) {
      await assert.rejects(
        store.put(key, Readable.from([Buffer.from('x')]), { maxBytes: 10 }),
        /invalid blob key/,
        key,
      );
    }
  });
});

describe('document settings', () => {
  test('BLOB_DIR defaults: next to a SQLite file, a temp folder for memory, ./data/blobs for PostgreSQL', () => {
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite:./var/db/fleet.db' }).blobDir, join('var', 'db', 'blobs'));
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite:/srv/fleet/fleet.db' }).blobDir, '/srv/fleet/blobs');
    assert.ok(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).blobDir.startsWith(tmpdir()));
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).blobDir, './data/blobs');
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://u@h/db', BLOB_DIR: '/mnt/shared' }).blobDir, '/mnt/shared');
  });

  test('size and content-type limits: defaults, overrides, and refusals naming the variable', () => {
    const c = loadConfig({});
    assert.equal(c.documentMaxBytes, 10_485_760);
    assert.ok(c.documentContentTypes.includes('application/pdf'));
    assert.deepEqual(loadConfig({ DOCUMENT_CONTENT_TYPES: 'Application/PDF, image/png' }).documentContentTypes, [
      'application/pdf',
      'image/png',
    ]);
    assert.throws(
      () => loadConfig({ DOCUMENT_MAX_BYTES: 'lots' }),
      (e: Error) => e instanceof ConfigError && /DOCUMENT_MAX_BYTES/.test(e.message),
    );
    assert.throws(() => loadConfig({ DOCUMENT_MAX_BYTES: '0' }), /DOCUMENT_MAX_BYTES/);
    assert.throws(() => loadConfig({ DOCUMENT_CONTENT_TYPES: 'pdf' }), /DOCUMENT_CONTENT_TYPES/);
  });
});
