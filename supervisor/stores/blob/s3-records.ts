// Small write-once records in an S3 bucket, beside content-addressed blobs: each is named by a
// sha256 (of what it describes — the external-module cache names a lock record by its specifier)
// and written put-if-absent (`If-None-Match: *`: the first writer wins and a record never changes,
// as a lock entry must not). What a record says is checked by its reader; the blobs it points to
// are verified by the blob store. Failures are BlobStoreUnavailableError, as the blob store's are.
import type { S3Client } from '@aws-sdk/client-s3';
import { assertBlobKey } from './blob-key.ts';
import { BlobStoreUnavailableError } from './blob-errors.ts';
import { createS3Client, normalisePrefix, s3Sdk, type S3BlobStoreOptions } from './s3-blob-store.ts';
import { describeS3Error, isAlreadyStored, isMissingObject, isNotImplemented } from './s3-errors.ts';

export class S3Records {
  readonly location: string;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #client: S3Client;
  #conditionalPuts = true;

  constructor(options: Omit<S3BlobStoreOptions, 'cache'>) {
    this.#bucket = options.bucket;
    this.#prefix = normalisePrefix(options.prefix ?? '');
    this.location = `s3://${this.#bucket}/${this.#prefix}` + (options.endpoint ? ` at ${options.endpoint}` : '');
    this.#client = createS3Client(options);
  }

  /** The record named `key` (a sha256 hex), or undefined when there is none. */
  async get(key: string): Promise<Uint8Array | undefined> {
    assertBlobKey(key);
    try {
      const object = await this.#client.send(new (s3Sdk().GetObjectCommand)({ Bucket: this.#bucket, Key: `${this.#prefix}${key}` }));
      if (object.Body === undefined) throw new Error('the response had no body');
      return await object.Body.transformToByteArray();
    } catch (e) {
      if (isMissingObject(e)) return undefined;
      throw new BlobStoreUnavailableError(`reading record ${key} in ${this.location}: ${describeS3Error(e)}`, e);
    }
  }

  /** Writes the record unless one by that name exists (then it is left as it is). */
  async putIfAbsent(key: string, bytes: Uint8Array): Promise<void> {
    assertBlobKey(key);
    const input = { Bucket: this.#bucket, Key: `${this.#prefix}${key}`, Body: bytes, ContentLength: bytes.byteLength, ContentType: 'application/json' };
    try {
      // Servers without conditional writes: a HEAD first (a racing writer may still win last).
      if (!this.#conditionalPuts && await this.get(key) !== undefined) return;
      await this.#client.send(new (s3Sdk().PutObjectCommand)(this.#conditionalPuts ? { ...input, IfNoneMatch: '*' } : input));
    } catch (e) {
      if (e instanceof BlobStoreUnavailableError) throw e;
      if (this.#conditionalPuts && isAlreadyStored(e)) return;
      if (this.#conditionalPuts && isNotImplemented(e)) {
        this.#conditionalPuts = false;
        return this.putIfAbsent(key, bytes);
      }
      throw new BlobStoreUnavailableError(`writing record ${key} in ${this.location}: ${describeS3Error(e)}`, e);
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}
