// The external-module cache's copy in S3 (a real S3-compatible server, s3rver, in its own process):
// a service with an empty local cache imports what another one locked, with the registry down;
// what it reads is checked — a record filed under another specifier is ignored, and an artifact
// whose bytes do not match its registry integrity is fetched from the registry instead.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ModuleService } from '../../../supervisor/modules/module-service.ts';
import { SharedModuleStore, S3_MODULE_BLOBS_PREFIX, S3_MODULE_LOCK_PREFIX } from '../../../supervisor/modules/shared-module-store.ts';
import { createBlobStore, S3Records } from '../../../supervisor/stores/blob/index.ts';
import { startNpmRegistry, type NpmRegistry } from '../../helpers/npm-registry.ts';
import { publishFixtures } from '../../helpers/npm-fixtures.ts';
import { startS3Server, type S3TestServer } from '../../helpers/s3-server.ts';

let registry: NpmRegistry;
let s3: S3TestServer;
const stores: SharedModuleStore[] = [];

before(async () => {
  registry = await startNpmRegistry();
  publishFixtures(registry);
  s3 = await startS3Server();
});
after(async () => {
  for (const s of stores) await s.close();
  await registry.close();
  await s3.stop();
});

function shared(): SharedModuleStore {
  const options = { endpoint: s3.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: s3.credentials };
  const store = new SharedModuleStore(
    createBlobStore({ backend: 's3', s3Bucket: s3.bucket, s3Prefix: S3_MODULE_BLOBS_PREFIX, s3Endpoint: s3.endpoint, s3ForcePathStyle: true, s3Region: 'us-east-1', s3Credentials: s3.credentials }),
    new S3Records({ bucket: s3.bucket, prefix: S3_MODULE_LOCK_PREFIX, ...options }),
  );
  stores.push(store);
  return store;
}

function service(store = shared(), log: string[] = []): ModuleService {
  const cacheDir = path.join(mkdtempSync(path.join(tmpdir(), 'runjs-shared-modules-')), 'modules');
  return new ModuleService({ cacheDir, registry: { registry: `${registry.url}/`, scopes: new Map(), tokens: new Map() }, shared: store, log: (l) => log.push(l) });
}

test('a second service with an empty local cache loads from the bucket with the registry down', async () => {
  const first = await service().load('npm:app@^1');
  registry.down = true;
  try {
    const store = shared();
    const second = service(store);
    assert.deepEqual(await second.resolve('npm:app@^1'), { specifier: 'npm:app@^1', type: 'npm', resolvedUrl: `${registry.url}/app/-/app-1.0.0.tgz` });
    assert.deepEqual(await second.load('npm:app@^1'), first);
    const record = await store.getRecord('npm:app@^1');
    assert.deepEqual(record?.entry.type === 'npm' ? record.entry.packages.map((p) => `${p.path}@${p.version}`) : [],
      ['node_modules/app@1.0.0', 'node_modules/leaf@1.4.0', 'node_modules/mid@1.2.0', 'node_modules/mid/node_modules/leaf@2.1.5']);
    assert.equal(Object.keys(record?.blobs ?? {}).length, 4);
  } finally {
    registry.down = false;
  }
});

test('a record under another specifier is ignored; an artifact that fails its integrity comes from the registry', async () => {
  const store = shared();
  await service(store).load('npm:cjs-pkg@3');
  const good = (await store.getRecord('npm:cjs-pkg@3'))!;
  // Filed under `npm:cjs-pkg@^3` but describing `npm:cjs-pkg@3`: not a record of `npm:cjs-pkg@^3`.
  const records = new S3Records({ bucket: s3.bucket, prefix: S3_MODULE_LOCK_PREFIX, endpoint: s3.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: s3.credentials });
  await records.putIfAbsent(SharedModuleStore.recordKey('npm:cjs-pkg@^3'), Buffer.from(JSON.stringify(good)));
  assert.equal(await store.getRecord('npm:cjs-pkg@^3'), undefined);
  // A record whose bundle is missing and whose tarball blob holds other bytes.
  const other = await store.blobs.put(Buffer.from('not the tarball'));
  const integrity = Object.keys(good.blobs)[0]!;
  await records.putIfAbsent(SharedModuleStore.recordKey('npm:cjs-pkg'), Buffer.from(JSON.stringify({ ...good, specifier: 'npm:cjs-pkg', bundle: '0'.repeat(64), blobs: { [integrity]: other } })));
  await records.close();
  const before = registry.seen.length;
  const m = await service(store).load('npm:cjs-pkg');
  assert.equal(m.commonjs, true);
  assert.deepEqual(registry.seen.slice(before), ['/cjs-pkg/-/cjs-pkg-3.0.0.tgz']);
});

test('the bucket unreachable: imports go on from the registry, the failure is logged', async () => {
  const down = new SharedModuleStore(
    createBlobStore({ backend: 's3', s3Bucket: s3.bucket, s3Prefix: S3_MODULE_BLOBS_PREFIX, s3Endpoint: 'http://127.0.0.1:9', s3ForcePathStyle: true, s3Region: 'us-east-1', s3Credentials: s3.credentials, maxAttempts: 1 }),
    new S3Records({ bucket: s3.bucket, prefix: S3_MODULE_LOCK_PREFIX, endpoint: 'http://127.0.0.1:9', forcePathStyle: true, region: 'us-east-1', credentials: s3.credentials, maxAttempts: 1 }),
  );
  stores.push(down);
  const log: string[] = [];
  const m = await service(down, log).load('npm:leaf@1');
  assert.equal(m.commonjs, false);
  assert.deepEqual(log.map((l) => l.split(':')[0]), ['external modules', 'external modules']);
  assert.equal(log[0], `external modules: the shared cache failed, using the registry: blob store unavailable: reading record ${SharedModuleStore.recordKey('npm:leaf@1')} in s3://runjs-test/modules/lock/ at http://127.0.0.1:9: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`);
  assert.match(log[1]!, /^external modules: could not copy 'npm:leaf@1' to the shared cache: blob store unavailable: writing blob [0-9a-f]{64} in s3:\/\/runjs-test\/modules\/blobs\/ at http:\/\/127\.0\.0\.1:9: ECONNREFUSED: connect ECONNREFUSED 127\.0\.0\.1:9$/);
});
