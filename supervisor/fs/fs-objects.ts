// Stored objects of the filesystem store: the encoding byte (raw or zstd, whichever is smaller)
// around every payload, and the mapping of blob-store failures to registry errors. The blob
// store verifies every read against its key, so a payload returned here is the one written.
import { zstdCompressSync, zstdDecompressSync, constants as zc } from 'node:zlib';
import { RunjsError } from '../../shared/errors.ts';
import { BlobCorruptError, BlobStoreError, type BlobStore } from '../stores/blob/index.ts';

const RAW = 0;
const ZSTD = 1;
/** Tiny payloads never shrink under zstd's frame overhead: skip the attempt. */
const MIN_COMPRESS_BYTES = 64;
/** Decompression bound: no stored object legitimately expands beyond a chunk plus slack. */
const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

export interface StoredObject {
  readonly key: string;
  /** Bytes handed to the blob store (after encoding). */
  readonly storedBytes: number;
}

export function encodeObject(payload: Uint8Array): Uint8Array {
  if (payload.length >= MIN_COMPRESS_BYTES) {
    const z = zstdCompressSync(payload, { params: { [zc.ZSTD_c_compressionLevel]: 3 } });
    if (z.length + 1 < payload.length + 1) return Buffer.concat([Uint8Array.of(ZSTD), z]);
  }
  return Buffer.concat([Uint8Array.of(RAW), payload]);
}

export function decodeObject(key: string, stored: Uint8Array): Uint8Array {
  const tag = stored[0];
  if (tag === RAW) return stored.subarray(1);
  if (tag === ZSTD) {
    try {
      return zstdDecompressSync(stored.subarray(1), { maxOutputLength: MAX_PAYLOAD_BYTES });
    } catch (e) {
      throw new RunjsError('FS_SNAPSHOT_CORRUPT', key, `cannot decompress: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  throw new RunjsError('FS_SNAPSHOT_CORRUPT', key, `unknown encoding byte ${String(tag)}`);
}

/** Blob-store failures become registry errors; the detail goes to `log`, not to the caller. */
export async function guarded<T>(log: (line: string) => void, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof BlobCorruptError) throw new RunjsError('FS_SNAPSHOT_CORRUPT', e.key, 'its bytes do not match its key');
    if (e instanceof BlobStoreError) {
      log(`filesystem store: ${what} failed: ${e.message}`);
      throw new RunjsError('FS_STORE_UNAVAILABLE');
    }
    throw e;
  }
}

export async function putObject(blobs: BlobStore, payload: Uint8Array): Promise<StoredObject> {
  const stored = encodeObject(payload);
  return { key: await blobs.put(stored), storedBytes: stored.length };
}
