import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readTarGz, TarError } from '../../../supervisor/modules/tar-reader.ts';
import { makeTarball } from '../../helpers/npm-registry.ts';

const LIMITS = { maxBytes: 1 << 20, maxFiles: 100 };

describe('readTarGz', () => {
  test('reads regular files, long names through the ustar prefix', () => {
    const long = `${'d'.repeat(90)}/${'e'.repeat(60)}/file.js`;
    const files = readTarGz(makeTarball({ 'package.json': '{"name":"x"}', 'lib/a.js': 'a', [long]: 'long', empty: '' }), LIMITS);
    assert.deepEqual([...files.keys()], ['package/package.json', 'package/lib/a.js', `package/${long}`, 'package/empty']);
    assert.equal(Buffer.from(files.get('package/lib/a.js')!).toString(), 'a');
    assert.equal(Buffer.from(files.get(`package/${long}`)!).toString(), 'long');
  });

  test('limits: bytes and file count', () => {
    assert.throws(() => readTarGz(makeTarball({ a: 'x'.repeat(2000) }), { maxBytes: 1000, maxFiles: 10 }), /unpacks to more than 1000 bytes/);
    assert.throws(() => readTarGz(makeTarball({ a: '1', b: '2', c: '3' }), { maxBytes: 1000, maxFiles: 2 }), /more than 2 files/);
  });

  test('an entry escaping the package fails the archive', () => {
    assert.throws(() => readTarGz(makeTarball({ '../../etc/x': 'no' }), LIMITS), (e: unknown) => e instanceof TarError && /escapes the package/.test(e.message));
  });

  test('not gzip, or truncated', () => {
    assert.throws(() => readTarGz(Buffer.from('plain'), LIMITS), /cannot gunzip/);
    const tar = makeTarball({ a: 'x'.repeat(3000) });
    assert.throws(() => readTarGz(gzipSync(gunzipSync(tar).subarray(0, 1024)), LIMITS), /truncated/);
  });
});
