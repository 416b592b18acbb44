// `--heap-store s3` is checked at startup with one HeadBucket: a missing region, missing
// credentials, a wrong bucket name or endpoint would otherwise start a server that reports
// `heap: true` and fails every heap-mode run. The error names the flags and environment
// variables to fix. (A bucket that is merely slow is given the store's usual timeouts.)
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { describeS3Error, httpStatusOf } from '../stores/blob/s3-errors.ts';
import type { HeapConfig } from './open-heaps.ts';

const PROBE_CONNECT_TIMEOUT_MS = 3_000;
const PROBE_SOCKET_TIMEOUT_MS = 10_000;

/** Resolves when the bucket answers; rejects with a one-paragraph explanation otherwise. */
export async function probeHeapBucket(config: HeapConfig): Promise<void> {
  const bucket = config.s3Bucket ?? '';
  const client = new S3Client({
    ...(config.s3Endpoint === undefined ? {} : { endpoint: config.s3Endpoint }),
    forcePathStyle: config.s3ForcePathStyle ?? false,
    maxAttempts: 2,
    requestHandler: { connectionTimeout: PROBE_CONNECT_TIMEOUT_MS, socketTimeout: PROBE_SOCKET_TIMEOUT_MS },
  });
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch (e) {
    const status = httpStatusOf(e);
    const why = status === 404 ? `bucket '${bucket}' does not exist` : status === 403 ? `access to bucket '${bucket}' is denied (HTTP 403): check the credentials` : describeS3Error(e);
    const where = config.s3Endpoint === undefined ? 'AWS S3 (or AWS_ENDPOINT_URL_S3)' : `--s3-endpoint ${config.s3Endpoint}`;
    throw new Error(`--heap-store s3: the heap bucket cannot be used: ${why}. `
      + `Checked bucket '${bucket}' (--s3-bucket) at ${where}`
      + `${config.s3ForcePathStyle ? ' with --s3-force-path-style' : ''}; region and credentials come from the AWS environment `
      + '(AWS_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE).');
  } finally {
    client.destroy();
  }
}
