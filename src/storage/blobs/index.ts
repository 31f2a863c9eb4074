/** The blob store the configuration names. Today: the local disk under BLOB_DIR (src/config). */
import type { Config } from '../../config/index.js';
import { LocalDiskBlobStore } from './local-disk.js';
import type { BlobStore } from './store.js';

export type { BlobStore, StoredBlob } from './store.js';
export { BlobTooLargeError } from './store.js';

export function openBlobStore(config: Pick<Config, 'blobDir'>): BlobStore {
  return new LocalDiskBlobStore(config.blobDir);
}
