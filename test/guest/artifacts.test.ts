// The `artifact` global (issue 6) on both engines, through a real pool whose op-requests reach a
// real ArtifactService (temp SQLite + directory blob store): bytes of every accepted input type
// arrive exactly, artifact.get reads them back, and bad arguments fail with clear texts.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guestSuite } from '../helpers/both-engines.ts';
import { openMetadataDb } from '../../supervisor/stores/metadata-db.ts';
import { artifactOpRoutes, openArtifacts } from '../../supervisor/artifacts/index.ts';
import { OpRouter } from '../../supervisor/pool/op-router.ts';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'runjs-guest-art-'));
const { service } = openArtifacts(openMetadataDb(dir), { sessionDbPath: dir });
const ops = new OpRouter([artifactOpRoutes(service)], () => {});

async function stored(key: string): Promise<{ mime: string; bytes: number[]; executionId: string | null }> {
  const found = await service.get(key);
  assert.ok(found, `artifact ${key} stored`);
  return { mime: found.meta.mime_type, bytes: [...found.bytes], executionId: found.meta.execution_id ?? null };
}

guestSuite('artifact()', (g) => {
  g.test('stores a Uint8Array and resolves to its metadata', async (ctx) => {
    const key = `u8-${ctx.engine}`;
    const out = await ctx.output(`const m = await artifact('${key}', 'image/png', new Uint8Array([137, 80, 78, 71]));
      console.log(JSON.stringify([m.key, m.mime_type, m.size_bytes, typeof m.created_at, typeof m.execution_id]));`);
    assert.equal(out, `["${key}","image/png",4,"string","string"]\n`);
    const s = await stored(key);
    assert.deepEqual(s.bytes, [137, 80, 78, 71]);
    assert.equal(s.mime, 'image/png');
  });

  g.test('views store exactly the bytes they cover; strings as UTF-8; ArrayBuffer whole', async (ctx) => {
    const k = (n: string) => `${n}-${ctx.engine}`;
    await ctx.output(`
      const buf = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]).buffer;
      await artifact('${k('sub')}', 'application/octet-stream', new Uint8Array(buf, 2, 3));
      await artifact('${k('dv')}', 'application/octet-stream', new DataView(buf, 5, 2));
      await artifact('${k('u16')}', 'application/octet-stream', new Uint16Array([0x0201, 0x0403]));
      await artifact('${k('ab')}', 'application/octet-stream', buf);
      await artifact('${k('str')}', 'text/plain; charset=utf-8', 'hé€');
      await artifact('${k('empty')}', 'text/plain', '');`);
    assert.deepEqual((await stored(k('sub'))).bytes, [3, 4, 5]);
    assert.deepEqual((await stored(k('dv'))).bytes, [6, 7]);
    assert.deepEqual((await stored(k('u16'))).bytes, [1, 2, 3, 4]);
    assert.deepEqual((await stored(k('ab'))).bytes, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual((await stored(k('str'))).bytes, [...Buffer.from('hé€', 'utf8')]);
    assert.equal((await stored(k('str'))).mime, 'text/plain; charset=utf-8');
    assert.deepEqual((await stored(k('empty'))).bytes, []);
  });

  g.test('artifact.get returns the bytes as a Uint8Array, null when absent; the same key overwrites', async (ctx) => {
    const key = `rt-${ctx.engine}`;
    const out = await ctx.output(`
      await artifact('${key}', 'text/plain', 'first');
      await artifact('${key}', 'text/csv', 'a,b');
      const got = await artifact.get('${key}');
      console.log(got instanceof Uint8Array, new TextDecoder().decode(got), await artifact.get('absent-${ctx.engine}'));`);
    assert.equal(out, 'true a,b null\n');
    assert.equal((await stored(key)).mime, 'text/csv');
  });

  g.test('a run records what it emitted, with its execution id', async (ctx) => {
    const key = `exec-${ctx.engine}`;
    await ctx.output(`await artifact('${key}', 'text/plain', 'x')`);
    const s = await stored(key);
    assert.ok(s.executionId !== null && service.forExecution(s.executionId).some((m) => m.key === key));
  });

  g.test('wrong argument types throw a TypeError at once', async (ctx) => {
    const out = await ctx.output(`
      for (const args of [[1, 'text/plain', 'x'], ['', 'text/plain', 'x'], ['k', '', 'x'], ['k', 7, 'x'], ['k', 'text/plain', {}], ['k', 'text/plain', [1, 2]], ['k', 'text/plain', null]]) {
        try { artifact(...args); console.log('no throw'); } catch (e) { console.log(e.name + ': ' + e.message); }
      }
      try { artifact.get(5); } catch (e) { console.log(e.name + ': ' + e.message); }`);
    assert.equal(out, [
      'TypeError: artifact: key must be a non-empty string',
      'TypeError: artifact: key must be a non-empty string',
      'TypeError: artifact: mime must be a non-empty string (e.g. "image/png")',
      'TypeError: artifact: mime must be a non-empty string (e.g. "image/png")',
      'TypeError: artifact: bytes must be a Uint8Array, another TypedArray, a DataView, an ArrayBuffer, or a string',
      'TypeError: artifact: bytes must be a Uint8Array, another TypedArray, a DataView, an ArrayBuffer, or a string',
      'TypeError: artifact: bytes must be a Uint8Array, another TypedArray, a DataView, an ArrayBuffer, or a string',
      'TypeError: artifact: key must be a non-empty string', '',
    ].join('\n'));
  });

  g.test('keys and mime types the service refuses reject the promise', async (ctx) => {
    const out = await ctx.output(`
      for (const [k, m] of [['../etc/passwd', 'text/plain'], ['a/b', 'text/plain'], ['ok', 'png'], ['ok', 'text/plain; charset']]) {
        await artifact(k, m, 'x').then(() => console.log('stored'), (e) => console.log(e.name + ': ' + e.message));
      }
      await artifact.get('../x').then(() => console.log('read'), (e) => console.log(e.name + ': ' + e.message));`);
    const lines = out.trimEnd().split('\n');
    assert.equal(lines.length, 5);
    assert.match(lines[0]!, /^TypeError: artifact: invalid artifact key '\.\.\/etc\/passwd'/);
    assert.match(lines[1]!, /^TypeError: artifact: invalid artifact key 'a\/b'/);
    assert.match(lines[2]!, /^TypeError: artifact: invalid mime type 'png'/);
    assert.match(lines[3]!, /^TypeError: artifact: invalid mime type/);
    assert.match(lines[4]!, /^TypeError: artifact: invalid artifact key/);
  });

  g.test('over 16 MiB rejects with an error naming the limit (nothing is stored)', async (ctx) => {
    const key = `big-${ctx.engine}`;
    const out = await ctx.output(`
      await artifact('${key}', 'application/octet-stream', new Uint8Array(16 * 1024 * 1024 + 1)).then(() => console.log('stored'), (e) => console.log(e.name + ': ' + e.message));
      const ok = await artifact('${key}-max', 'application/octet-stream', new Uint8Array(16 * 1024 * 1024));
      console.log(ok.size_bytes);`, { heapMemoryMaxMb: 128, timeoutMs: 60_000 });
    assert.equal(out, 'RangeError: artifact: payload of 16777217 bytes exceeds the limit of 16777216 bytes (16 MiB)\n16777216\n');
    assert.equal(service.meta(key), undefined);
  });

  g.test('a refused write rejects with an instance of the class it names, also when nothing handles it', async (ctx) => {
    const big = 'new Uint8Array(16 * 1024 * 1024 + 1)';
    const out = await ctx.output(`const e = await artifact('cls-${ctx.engine}', 'application/octet-stream', ${big}).catch((e) => e);
      console.log(e instanceof RangeError, Object.hasOwn(e, 'name'), e.constructor === RangeError);`, { heapMemoryMaxMb: 64 });
    assert.equal(out, 'true false true\n');
    // Unhandled: fatal on V8 (the class survives isolated-vm's copy of the reason), unnoticed on QuickJS.
    const { outcome } = await ctx.run(`artifact('cls-${ctx.engine}', 'application/octet-stream', ${big}); 1`, { heapMemoryMaxMb: 64 });
    assert.deepEqual(outcome, ctx.engine === 'v8'
      ? { status: 'failed', error: 'Uncaught RangeError: artifact: payload of 16777217 bytes exceeds the limit of 16777216 bytes (16 MiB)' }
      : { status: 'completed', result: '1' });
  });

  g.test('an answer larger than the heap cap fails the run out of memory, even inside try/catch', async (ctx) => {
    const key = `huge-${ctx.engine}`;
    await service.put(key, 'application/octet-stream', new Uint8Array(16 * 1024 * 1024), null);
    const { outcome } = await ctx.run(`try { (await artifact.get('${key}')).length } catch (e) { 'caught ' + e }`, { timeoutMs: 30_000 });
    assert.deepEqual(outcome, { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY });
  });

  g.test('un-awaited writes are bounded: past 64 MiB pending, artifact() rejects until earlier ones finish', async (ctx) => {
    const out = await ctx.output(`
      const big = new Uint8Array(16 * 1024 * 1024);
      const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => artifact('pend-' + i + '-${ctx.engine}', 'application/octet-stream', big)));
      const refused = results.filter((r) => r.status === 'rejected');
      console.log(results.length - refused.length >= 4, refused.length >= 1, refused[0]?.reason.message);
      console.log((await artifact('pend-after-${ctx.engine}', 'application/octet-stream', big)).size_bytes);`, { heapMemoryMaxMb: 128, timeoutMs: 60_000 });
    assert.equal(out, 'true true artifact: more than 67108864 bytes (64 MiB) of artifact writes are pending; await earlier artifact() calls first\n16777216\n');
  });
}, { ops });
