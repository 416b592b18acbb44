// Where heap images live between runs. Keys are content hashes (sha256 of the encoded image), so
// storing the same state twice costs nothing and a key names exactly one state — forking a heap
// is restoring its key into two runs. The in-memory store serves tests and single-process use;
// dir and S3 stores implement the same interface over `encodeHeapImage` blobs.
import { createHash } from 'node:crypto';
import { HeapImageError, parseHeapImage, type HeapImage } from './heap-image.ts';

export interface ImageStore {
  /** Stores `image` and returns its key. Storing an image that is already there is a no-op. */
  put(image: HeapImage): Promise<string>;
  /** The image stored under `key`, or undefined when there is none. */
  get(key: string): Promise<HeapImage | undefined>;
  has(key: string): Promise<boolean>;
  /** Removes the image; false when there was none. */
  delete(key: string): Promise<boolean>;
}

const MAGIC = 0x49484a52; // "RJHI" little-endian: runjs heap image

/** One blob: magic, manifest length, manifest JSON, page bytes. */
export function encodeHeapImage(image: HeapImage): Uint8Array {
  const manifest = Buffer.from(JSON.stringify(image.manifest), 'utf8');
  const out = new Uint8Array(8 + manifest.byteLength + image.bytes.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, manifest.byteLength, true);
  out.set(manifest, 8);
  out.set(image.bytes, 8 + manifest.byteLength);
  return out;
}

export function decodeHeapImage(blob: Uint8Array): HeapImage {
  if (blob.byteLength < 8) throw new HeapImageError('Heap image blob is truncated');
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new HeapImageError('Not a heap image blob');
  const length = view.getUint32(4, true);
  if (8 + length > blob.byteLength) throw new HeapImageError('Heap image blob is truncated');
  let manifest: unknown;
  try {
    manifest = JSON.parse(Buffer.from(blob.buffer, blob.byteOffset + 8, length).toString('utf8'));
  } catch {
    throw new HeapImageError('Heap image manifest is not JSON');
  }
  return parseHeapImage({ manifest, bytes: blob.subarray(8 + length) });
}

/** The content key of an image: sha256 (hex) of its encoded blob (hashed piecewise, without building the blob). */
export function heapImageKey(image: HeapImage): string {
  const manifest = Buffer.from(JSON.stringify(image.manifest), 'utf8');
  const header = Buffer.alloc(8);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(manifest.byteLength, 4);
  return createHash('sha256').update(header).update(manifest).update(image.bytes).digest('hex');
}

/**
 * heapImageKey off the calling thread: WebCrypto's digest runs on the libuv thread pool, so a
 * supervisor hashing MB images for several workers at once does not serialise them on its event loop.
 */
export async function heapImageKeyAsync(image: HeapImage): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encodeHeapImage(image));
  return Buffer.from(digest).toString('hex');
}

export class MemoryImageStore implements ImageStore {
  readonly #images = new Map<string, HeapImage>();

  async put(image: HeapImage): Promise<string> {
    const key = heapImageKey(image);
    // Keep a private copy: the caller's buffer may be reused or transferred.
    if (!this.#images.has(key)) this.#images.set(key, { manifest: structuredClone(image.manifest), bytes: image.bytes.slice() });
    return key;
  }

  async get(key: string): Promise<HeapImage | undefined> {
    return this.#images.get(key);
  }

  async has(key: string): Promise<boolean> {
    return this.#images.has(key);
  }

  async delete(key: string): Promise<boolean> {
    return this.#images.delete(key);
  }

  get size(): number {
    return this.#images.size;
  }
}
