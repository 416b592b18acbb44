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

/**
 * The page hashes of a step's parent image, derived from its child's: a parent page equal to a
 * child page (`same`, as for heapImageHash) has that page's hash; only the others are hashed. For
 * a worker that received the parent whole (no hashes of its own), so its next step from the same
 * parent (a fan-out) hashes only the changed pages.
 */
export function parentPageHashes(parent: HeapImage, childHashes: Uint8Array, same: (i: number) => number): Uint8Array {
  const pages = parent.bytes.byteLength / IMAGE_PAGE_BYTES;
  const hashes = new Uint8Array(pages * DIGEST_BYTES);
  const known = new Uint8Array(pages);
  for (let i = 0; i < childHashes.byteLength / DIGEST_BYTES; i++) {
    const j = same(i);
    if (j < 0 || j >= pages || known[j]) continue;
    hashes.set(childHashes.subarray(i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES), j * DIGEST_BYTES);
    known[j] = 1;
  }
  for (let j = 0; j < pages; j++) {
    if (!known[j]) hashes.set(createHash('sha256').update(parent.bytes.subarray(j * IMAGE_PAGE_BYTES, (j + 1) * IMAGE_PAGE_BYTES)).digest(), j * DIGEST_BYTES);
  }
  return hashes;
}

/** Pages hashed concurrently by heapImageHashAsync: WebCrypto copies each input, so this bounds the copies in flight (16 MiB). */
const ASYNC_BATCH_PAGES = 256;

/** heapImageHash with every page hashed on the libuv thread pool (WebCrypto), for readers verifying an image off their event loop. */
export async function heapImageHashAsync(image: HeapImage): Promise<string> {
  const pages = image.bytes.byteLength / IMAGE_PAGE_BYTES;
  const hashes = new Uint8Array(pages * DIGEST_BYTES);
  for (let first = 0; first < pages; first += ASYNC_BATCH_PAGES) {
    const batch = Array.from({ length: Math.min(ASYNC_BATCH_PAGES, pages - first) }, (_, k) => first + k);
    const digests = await Promise.all(batch.map((i) => crypto.subtle.digest('SHA-256', image.bytes.subarray(i * IMAGE_PAGE_BYTES, (i + 1) * IMAGE_PAGE_BYTES))));
    digests.forEach((d, k) => hashes.set(new Uint8Array(d), batch[k]! * DIGEST_BYTES));
  }
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
