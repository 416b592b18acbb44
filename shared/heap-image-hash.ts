// The image hash a heap record pins (`image`), version 2: sha256 over a header, the manifest and
// the sha256 of each stored 64 KiB page, in order. Between two steps of a session most pages are
// byte-identical to the parent's (heap-delta.ts compares them anyway), so the worker encoding a
// step hashes only the pages that changed and reuses its parent's page hashes for the rest: for
// the bench's 2.8 MB image that is a few pages instead of 2.8 MB of sha256 (≈ 2.7 ms on this
// machine, the largest part of a step's encoding). A reader verifies a rebuilt image by hashing
// every page, as costly as the version 1 hash (image-store.ts heapImageKey, still read for the
// records written before, version 1).
import { createHash } from 'node:crypto';
import { IMAGE_PAGE_BYTES, type HeapImage } from './heap-image.ts';

const MAGIC = 0x32484a52; // "RJH2" little-endian
const DIGEST_BYTES = 32;

/** An image's hash and its pages' hashes (DIGEST_BYTES each, in stored-page order), kept to hash the next step cheaply. */
export interface ImageHash {
  readonly key: string;
  readonly pageHashes: Uint8Array;
}

/**
 * The version 2 hash of `image`. `reuse(i)`: the stored page index of an identical page in an
 * image whose page hashes are `from` (a step's parent), or -1; such pages are not hashed again.
 */
export function heapImageHash(image: HeapImage, reuse?: { readonly from: Uint8Array; readonly same: (i: number) => number }): ImageHash {
  const pages = image.bytes.byteLength / IMAGE_PAGE_BYTES;
  const hashes = new Uint8Array(pages * DIGEST_BYTES);
  for (let i = 0; i < pages; i++) {
    const j = reuse ? reuse.same(i) : -1;
    if (j >= 0 && (j + 1) * DIGEST_BYTES <= reuse!.from.byteLength) hashes.set(reuse!.from.subarray(j * DIGEST_BYTES, (j + 1) * DIGEST_BYTES), i * DIGEST_BYTES);
    else hashes.set(createHash('sha256').update(image.bytes.subarray(i * IMAGE_PAGE_BYTES, (i + 1) * IMAGE_PAGE_BYTES)).digest(), i * DIGEST_BYTES);
  }
  return { key: combine(image, hashes), pageHashes: hashes };
}

/** heapImageHash with every page hashed on the libuv thread pool (WebCrypto), for readers verifying an image off their event loop. */
export async function heapImageHashAsync(image: HeapImage): Promise<string> {
  const pages = image.bytes.byteLength / IMAGE_PAGE_BYTES;
  const digests = await Promise.all(Array.from({ length: pages }, (_, i) =>
    crypto.subtle.digest('SHA-256', image.bytes.subarray(i * IMAGE_PAGE_BYTES, (i + 1) * IMAGE_PAGE_BYTES))));
  const hashes = new Uint8Array(pages * DIGEST_BYTES);
  digests.forEach((d, i) => hashes.set(new Uint8Array(d), i * DIGEST_BYTES));
  return combine(image, hashes);
}

function combine(image: HeapImage, pageHashes: Uint8Array): string {
  const manifest = Buffer.from(JSON.stringify(image.manifest), 'utf8');
  const header = Buffer.alloc(12);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(manifest.byteLength, 4);
  header.writeUInt32LE(pageHashes.byteLength / DIGEST_BYTES, 8);
  return createHash('sha256').update(header).update(manifest).update(pageHashes).digest('hex');
}
