/**
 * Blob store on the local disk: one file per key under a root folder. A blob is written to a
 * temporary file next to its final path and renamed into place only once complete, so a reader never
 * sees half a file and a failed write leaves nothing behind.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, assertBlobKey, type BlobStore, type StoredBlob } from './store.js';

export class LocalDiskBlobStore implements BlobStore {
  readonly kind = 'local-disk';

  constructor(readonly root: string) {}

  private path(key: string): string {
    assertBlobKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable, opts: { maxBytes: number }): Promise<StoredBlob> {
    const final = this.path(key);
    await mkdir(dirname(final), { recursive: true });
    const tmp = `${final}.${randomUUID()}.part`;
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > opts.maxBytes) return cb(new BlobTooLargeError(opts.maxBytes));
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(body, meter, out);
      await rename(tmp, final);
    } catch (err) {
      // The file may still be opening when the pipeline fails: remove it only once the stream is closed.
      if (!out.closed) await once(out, 'close').catch(() => {});
      await rm(tmp, { force: true });
      throw err;
    }
    return { size, sha256: hash.digest('hex') };
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.path(key))).isFile();
    } catch {
      return false;
    }
  }

  async open(key: string): Promise<Readable | null> {
    if (!(await this.exists(key))) return null;
    return createReadStream(this.path(key));
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
