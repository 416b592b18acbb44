// Shared pieces of the filesystem label e2e suites: a store backend (a directory or a real s3rver
// process) that both the server processes and the test itself use, so the test can make trees
// through the store API (runs cannot write files until the mount slice) and servers see them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { FsService, FsStore, LabelsDb, S3_FS_PREFIX, type CommitFile } from '../../../supervisor/fs/index.ts';
import { startS3Server, type S3TestServer } from '../../helpers/s3-server.ts';

export interface Backend {
  readonly name: 'dir' | 's3';
  /** Server flags putting blobs and labels on this backend (labels in `labelsDir`, shared by every server given these flags). */
  readonly flags: string[];
  readonly env: NodeJS.ProcessEnv;
  /** Writes a tree straight into the store and returns its id. */
  commit(files: Readonly<Record<string, CommitFile>>, base?: string): Promise<string>;
  /** A file's text in a stored tree (undefined when absent). */
  read(root: string, path: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export async function openBackend(name: 'dir' | 's3'): Promise<Backend> {
  const tmp = mkdtempSync(join(tmpdir(), `runjs-fs-e2e-${name}-`));
  const labelsDir = join(tmp, 'labels');
  let s3: S3TestServer | undefined;
  let flags: string[];
  let env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '' };
  let blobs;
  if (name === 'dir') {
    flags = ['--fs-store', 'dir', '--fs-dir', join(tmp, 'blobs'), '--fs-labels-db', labelsDir];
    blobs = createBlobStore({ backend: 'dir', dir: join(tmp, 'blobs') });
  } else {
    s3 = await startS3Server('runjs-fs');
    env = s3.serverEnv();
    flags = ['--fs-store', 's3', '--s3-bucket', s3.bucket, '--s3-endpoint', s3.endpoint, '--s3-force-path-style', '--fs-labels-db', labelsDir];
    blobs = createBlobStore({
      backend: 's3', s3Bucket: s3.bucket, s3Prefix: S3_FS_PREFIX, s3Endpoint: s3.endpoint, s3ForcePathStyle: true,
      s3Region: 'us-east-1', s3Credentials: s3.credentials, log: () => {},
    });
  }
  const store = new FsStore({ blobs, log: () => {} });
  // The test's own label db is private: trees are made here, labels move only through the servers.
  const writer = new FsService({ store, labels: new LabelsDb(join(tmp, 'writer-labels')) });
  return {
    name, flags, env,
    commit: (files, base) => writer.commit(files, base),
    read: async (root, path) => {
      const e = await store.lookup(root, path);
      return e?.kind === 'file' ? Buffer.from(await store.readFile(e)).toString('utf8') : undefined;
    },
    close: async () => {
      await store.close();
      await s3?.stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export async function api(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
}

/** A 40-line text file, and the same with line `i` replaced. */
export const TEXT = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join('');
export const edited = (i: number, s: string, text = TEXT): string => text.split('\n').map((l, j) => (j === i ? s : l)).join('\n');
