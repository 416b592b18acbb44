// The `s3` backend: objects at <prefix>ab/cdef… in one bucket (the dir layout, so a dir store can
// be migrated with a plain `aws s3 sync`). Region, credentials and a default endpoint come from the
// AWS SDK's own resolution (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_PROFILE, AWS_ENDPOINT_URL_S3, IMDS,
// …); only what runjs flags say is passed here. Every call has a connect timeout, an idle timeout
// and a bounded number of attempts, so an outage becomes an error, never a hang.
import { createRequire } from 'node:module';
import type { PutObjectCommandInput, S3Client } from '@aws-sdk/client-s3';
import type { BlobKey, BlobListing, SweepableBlobStore } from './blob-store.ts';
import { assertBlobKey, blobKeyOf } from './blob-key.ts';
import { BlobCorruptError, BlobStoreUnavailableError } from './blob-errors.ts';
import type { BlobCache } from './blob-cache.ts';
import { describeS3Error, isAlreadyStored, isMissingObject, isNotImplemented, isWriteInFlight } from './s3-errors.ts';

// Worst case for one call against a server that accepts connections but never answers:
// attempts × idle timeout plus the SDK's short backoff, about half a minute; S3 itself answers in
// milliseconds, so these leave ample room while an outage still surfaces well before a user gives up.
/**
 * The AWS SDK, loaded when the first S3 store is made: it costs ≈ 30 MB of memory and ≈ 0.2 s
 * of startup, which servers without an s3 store (the default) should not pay.
 */
type S3Sdk = typeof import('@aws-sdk/client-s3');
let s3Sdk: S3Sdk | undefined;
function sdk(): S3Sdk {
  s3Sdk ??= createRequire(import.meta.url)('@aws-sdk/client-s3') as S3Sdk;
  return s3Sdk;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_ATTEMPTS = 3;

export interface S3BlobStoreOptions {
  readonly bucket: string;
  /** Prepended to every object key; a trailing `/` is added when missing (`heaps` → `heaps/ab/cdef…`). */
  readonly prefix?: string;
  /** `--s3-endpoint`: an S3-compatible server; unset means AWS (or AWS_ENDPOINT_URL_S3). */
  readonly endpoint?: string;
  /** `--s3-force-path-style`: `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>`. */
  readonly forcePathStyle?: boolean;
  /** Normally unset: the SDK reads AWS_REGION / the shared config. */
  readonly region?: string;
  /** Normally unset: the SDK's default chain (environment, profile, web identity, IMDS). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string };
  /** Read cache (see blob-cache.ts); without one every `get` goes to S3. */
  readonly cache?: BlobCache;
  /** Time allowed to establish a connection (default 3 s). */
  readonly connectTimeoutMs?: number;
  /** Longest silence on a connection before the attempt fails (default 10 s). */
  readonly idleTimeoutMs?: number;
  /** Attempts per operation, the first included; the SDK backs off between them (default 3). */
  readonly maxAttempts?: number;
  /**
   * A put that finds its object stored longer ago than this refreshes its LastModified (writes
   * the same bytes again), so garbage collection cannot take an object a writer has just re-used; such a
   * put also asks S3, never the read cache. Unset (heaps, artifacts): never refreshed.
   */
  readonly refreshAfterMs?: number;
  readonly now?: () => number;
}

/** Concurrent PUTs of one putAll (a snapshot commit's new objects). */
const PUT_ALL_CONCURRENCY = 16;
const OBJECT_SUFFIX = /^([0-9a-f]{2})\/([0-9a-f]{62})$/;

export class S3BlobStore implements SweepableBlobStore {
  readonly location: string;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #client: S3Client;
  readonly #cache: BlobCache | undefined;
  readonly #refreshAfterMs: number | undefined;
  readonly #now: () => number;
  /** Cleared after a 501 to `If-None-Match: *`, so later puts skip the conditional header. */
  #conditionalPuts = true;
  /** Concurrent reads of one key (e.g. a fan-out of runs from one heap) share a single download. */
  readonly #downloads = new Map<BlobKey, Promise<Uint8Array | undefined>>();

  constructor(options: S3BlobStoreOptions) {
    this.#bucket = options.bucket;
    this.#prefix = normalisePrefix(options.prefix ?? '');
    this.#cache = options.cache;
    this.#refreshAfterMs = options.refreshAfterMs;
    this.#now = options.now ?? Date.now;
    this.location = `s3://${this.#bucket}/${this.#prefix}` + (options.endpoint ? ` at ${options.endpoint}` : '');
    this.#client = createS3Client(options);
  }

  async put(bytes: Uint8Array): Promise<BlobKey> {
    const key = blobKeyOf(bytes);
    if (this.#refreshAfterMs === undefined) {
      // Anything in the cache was read from or written to the bucket, so it is there already.
      if (await this.#cache?.has(key)) return key;
      if ((await this.#head(key, 'writing')) === undefined) await this.#upload(key, bytes);
    } else {
      // A collector may have deleted what the cache remembers: ask the bucket, and refresh an old object.
      // An old object is refreshed by writing its bytes again, unconditionally (same key, same
      // bytes): that sets LastModified on every S3-compatible server, where a copy onto itself
      // does not everywhere (s3rver keeps the old time). LastModified has whole seconds: an
      // object counts as up to a second younger than it says.
      const found = await this.#headFull(key, 'writing');
      if (found === undefined) await this.#upload(key, bytes);
      else if (this.#now() - found.modifiedMs >= this.#refreshAfterMs - 1000) await this.#upload(key, bytes, 0, false);
    }
    await this.#cache?.put(key, bytes);
    return key;
  }

  /** Each object is its own PUT, durable when S3 answers: a few at a time, nothing shared. */
  async putAll(objects: readonly Uint8Array[]): Promise<BlobKey[]> {
    const keys = new Array<BlobKey>(objects.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < objects.length) {
        const i = next++;
        keys[i] = await this.put(objects[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PUT_ALL_CONCURRENCY, objects.length) }, worker));
    return keys;
  }

  async *list(): AsyncGenerator<BlobListing> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.#client.send(new (sdk().ListObjectsV2Command)({ Bucket: this.#bucket, Prefix: this.#prefix, ...(token === undefined ? {} : { ContinuationToken: token }) }));
      } catch (e) {
        throw this.#unavailable('listing blobs', e);
      }
      for (const o of page.Contents ?? []) {
        const m = OBJECT_SUFFIX.exec((o.Key ?? '').slice(this.#prefix.length));
        if (m === null || o.LastModified === undefined) continue;
        yield { key: m[1]! + m[2]!, size: o.Size ?? 0, modifiedMs: o.LastModified.getTime() };
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  /**
   * Reads LastModified again just before deleting (S3 has no atomic conditional delete on a
   * time): an object refreshed after `cutoffMs` stays. LastModified has whole seconds, so an
   * object counts as older only when even its last possible millisecond is before the cutoff.
   */
  async deleteIfOlder(key: BlobKey, cutoffMs: number): Promise<boolean> {
    assertBlobKey(key);
    const found = await this.#headFull(key, 'deleting');
    if (found === undefined || found.modifiedMs + 1000 > cutoffMs) return false;
    await this.delete(key);
    return true;
  }

  async putStream(chunks: AsyncIterable<Uint8Array>): Promise<BlobKey> {
    // The object key is the content hash, known only at the end, so the content is gathered first;
    // uploading under a temporary key and copying would write every byte to S3 twice.
    const parts: Uint8Array[] = [];
    for await (const chunk of chunks) parts.push(chunk);
    return this.put(Buffer.concat(parts));
  }

  async get(key: BlobKey): Promise<Uint8Array | undefined> {
    assertBlobKey(key);
    const cached = await this.#cache?.get(key);
    if (cached !== undefined) return cached;
    const pending = this.#downloads.get(key);
    // Followers get their own copy so no caller can change the bytes another one holds.
    if (pending !== undefined) return (await pending)?.slice();
    const download = this.#download(key).finally(() => this.#downloads.delete(key));
    this.#downloads.set(key, download);
    return download;
  }

  async has(key: BlobKey): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async size(key: BlobKey): Promise<number | undefined> {
    assertBlobKey(key);
    // A cached entry was read from or written to the bucket, so the object is there.
    return (await this.#cache?.size(key)) ?? this.#head(key, 'reading');
  }

  async delete(key: BlobKey): Promise<void> {
    assertBlobKey(key);
    // The cache first: an entry left behind would make `has` and `put` believe the object is there.
    await this.#cache?.delete(key);
    try {
      // S3 answers 204 for an absent key too, so absent needs no special case.
      await this.#client.send(new (sdk().DeleteObjectCommand)({ Bucket: this.#bucket, Key: this.#objectKey(key) }));
    } catch (e) {
      if (isMissingObject(e)) return;
      throw this.#unavailable(`deleting blob ${key}`, e);
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }

  async #headFull(key: BlobKey, verb: string): Promise<{ size: number; modifiedMs: number } | undefined> {
    try {
      const head = await this.#client.send(new (sdk().HeadObjectCommand)({ Bucket: this.#bucket, Key: this.#objectKey(key) }));
      return { size: head.ContentLength ?? 0, modifiedMs: head.LastModified?.getTime() ?? 0 };
    } catch (e) {
      if (isMissingObject(e)) return undefined;
      throw this.#unavailable(`${verb} blob ${key}`, e);
    }
  }

  /** The object's size, or undefined when it is absent. */
  async #head(key: BlobKey, verb: string): Promise<number | undefined> {
    try {
      const head = await this.#client.send(new (sdk().HeadObjectCommand)({ Bucket: this.#bucket, Key: this.#objectKey(key) }));
      return head.ContentLength ?? 0;
    } catch (e) {
      if (isMissingObject(e)) return undefined;
      throw this.#unavailable(`${verb} blob ${key}`, e);
    }
  }

  /** `conditional` false: a refresh, which must replace the object (its bytes are the same). */
  async #upload(key: BlobKey, bytes: Uint8Array, conflicts = 0, conditional = this.#conditionalPuts): Promise<void> {
    const input: PutObjectCommandInput = {
      Bucket: this.#bucket,
      Key: this.#objectKey(key),
      Body: bytes,
      ContentLength: bytes.byteLength,
      ContentType: 'application/octet-stream',
      // S3 checks the body against this and rejects a transfer corrupted on the way in.
      ChecksumSHA256: Buffer.from(key, 'hex').toString('base64'),
    };
    try {
      // The HEAD above is only a fast path: `If-None-Match: *` makes the write itself refuse to
      // replace an object a racing writer stored in between (where the server supports it).
      await this.#client.send(new (sdk().PutObjectCommand)(conditional ? { ...input, IfNoneMatch: '*' } : input));
    } catch (e) {
      if (conditional && isAlreadyStored(e)) return;
      // The racing write may still fail, so this one cannot count as stored until it succeeds.
      if (isWriteInFlight(e) && conflicts < 3) {
        await new Promise((resolve) => setTimeout(resolve, 100 * (conflicts + 1)));
        return this.#upload(key, bytes, conflicts + 1, conditional);
      }
      if (conditional && isNotImplemented(e)) {
        this.#conditionalPuts = false;
        return this.#upload(key, bytes, conflicts);
      }
      throw this.#unavailable(`writing blob ${key}`, e);
    }
  }

  async #download(key: BlobKey): Promise<Uint8Array | undefined> {
    let bytes: Uint8Array;
    try {
      const object = await this.#client.send(new (sdk().GetObjectCommand)({ Bucket: this.#bucket, Key: this.#objectKey(key) }));
      if (object.Body === undefined) throw new Error('the response had no body');
      bytes = await object.Body.transformToByteArray();
    } catch (e) {
      if (isMissingObject(e)) return undefined;
      throw this.#unavailable(`reading blob ${key}`, e);
    }
    const actual = blobKeyOf(bytes);
    if (actual !== key) throw new BlobCorruptError(key, actual, this.location);
    await this.#cache?.put(key, bytes);
    return bytes;
  }

  #objectKey(key: BlobKey): string {
    return `${this.#prefix}${key.slice(0, 2)}/${key.slice(2)}`;
  }

  #unavailable(operation: string, error: unknown): BlobStoreUnavailableError {
    return new BlobStoreUnavailableError(`${operation} in ${this.location}: ${describeS3Error(error)}`, error);
  }
}

/** A client as the options say (the SDK loaded on first use), with the store's timeouts and attempts. */
export function createS3Client(options: Omit<S3BlobStoreOptions, 'bucket' | 'prefix' | 'cache'>): S3Client {
  return new (sdk().S3Client)({
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    forcePathStyle: options.forcePathStyle ?? false,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    requestHandler: {
      connectionTimeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      socketTimeout: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    },
  });
}

export { sdk as s3Sdk };

export function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+/, '');
  return trimmed === '' || trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
}
