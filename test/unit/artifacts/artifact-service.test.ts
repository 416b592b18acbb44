import { test } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMetadataDb } from '../../../supervisor/stores/metadata-db.ts';
import { createBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { ArtifactService } from '../../../supervisor/artifacts/artifact-service.ts';
import { UploadTokens } from '../../../supervisor/artifacts/upload-tokens.ts';
import { ArtifactRuleError, checkKey, checkMime, MAX_ARTIFACT_BYTES } from '../../../supervisor/artifacts/artifact-rules.ts';

function setup(now?: () => Date) {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-art-'));
  const db = openMetadataDb(dir);
  const blobs = createBlobStore({ backend: 'dir', dir: join(dir, 'blobs') });
  return { db, svc: new ArtifactService(db, blobs, now === undefined ? {} : { now }), tokens: new UploadTokens(db, now) };
}

test('keys: a safe charset without path tricks', () => {
  for (const ok of ['a', 'chart.png', 'A_b-1.tar.gz', 'x'.repeat(128)]) assert.equal(checkKey(ok), ok);
  for (const bad of ['', '../x', 'a/b', '.hidden', 'a b', 'é', 'x'.repeat(129), '-x']) assert.throws(() => checkKey(bad), ArtifactRuleError, bad);
  assert.throws(() => checkKey('../x'), { message: "invalid artifact key '../x': use letters, digits, '.', '_' and '-', starting with a letter or digit" });
});

test('mime types must parse; parameters allowed; type/subtype lower-cased', () => {
  assert.equal(checkMime('image/PNG'), 'image/png');
  assert.equal(checkMime('text/csv; charset=utf-8'), 'text/csv; charset=utf-8');
  assert.equal(checkMime('application/vnd.api+json;q="a b"'), 'application/vnd.api+json;q="a b"');
  for (const bad of ['png', 'image/', '/png', 'image/png; charset', 'a/b c', 'text/plain;;', '']) assert.throws(() => checkMime(bad), ArtifactRuleError, bad);
  for (const wildcard of ['*/*', 'image/*', '*/png']) {
    assert.throws(() => checkMime(wildcard), { message: `invalid mime type '${wildcard}': '*' is a wildcard, name the exact type (e.g. "image/png")` });
  }
  assert.equal(checkMime('text/plain; x=*'), 'text/plain; x=*');
  assert.throws(() => checkMime('png'), { message: `invalid mime type 'png': expected type/subtype with optional parameters (e.g. "text/csv; charset=utf-8")` });
});

test('put/get round trip; same key overwrites; list sorted; per-execution emissions', async () => {
  const { svc } = setup();
  const m1 = await svc.put('b.txt', 'text/plain', new TextEncoder().encode('one'), 'exec-1');
  assert.deepEqual({ ...m1, created_at: 'x' }, { key: 'b.txt', mime_type: 'text/plain', size_bytes: 3, created_at: 'x', execution_id: 'exec-1' });
  await svc.put('a.bin', 'application/octet-stream', new Uint8Array([0, 255]), null);
  await svc.put('b.txt', 'text/markdown', new TextEncoder().encode('second'), 'exec-2');
  const got = await svc.get('b.txt');
  assert.equal(new TextDecoder().decode(got!.bytes), 'second');
  assert.equal(got!.meta.mime_type, 'text/markdown');
  assert.equal(got!.meta.execution_id, 'exec-2');
  assert.deepEqual(svc.list().map((m) => m.key), ['a.bin', 'b.txt']);
  assert.deepEqual(svc.forExecution('exec-1').map((m) => [m.key, m.size_bytes]), [['b.txt', 3]]);
  assert.equal(await svc.get('missing'), undefined);
});

test('payloads over 16 MiB are refused with 413 and store nothing', async () => {
  const { svc } = setup();
  await assert.rejects(svc.put('big', 'application/octet-stream', new Uint8Array(MAX_ARTIFACT_BYTES + 1), null), (e: unknown) => e instanceof ArtifactRuleError && e.status === 413);
  assert.equal(svc.meta('big'), undefined);
  assert.equal((await svc.put('exact', 'application/octet-stream', new Uint8Array(MAX_ARTIFACT_BYTES), null)).size_bytes, MAX_ARTIFACT_BYTES);
});

test('upload tokens: issued → in flight (others refused) → used; release returns to issued', () => {
  const { tokens } = setup();
  const up = tokens.issue('k.png', 'image/png', undefined);
  assert.match(up.token, /^[A-Za-z0-9_-]{43}$/);
  const c1 = tokens.claim(up.token);
  assert.ok(c1);
  assert.equal(c1.key, 'k.png');
  assert.equal(c1.mimeType, 'image/png');
  assert.equal(tokens.claim(up.token), undefined, 'in flight: a concurrent claim is refused');
  c1.release();
  const c2 = tokens.claim(up.token);
  assert.ok(c2, 'a released token is usable again');
  c2.complete();
  assert.equal(tokens.claim(up.token), undefined, 'used');
  assert.equal(tokens.claim('unknown'), undefined);
});

test('upload tokens are stored only as their SHA-256: the database never holds the credential', () => {
  const { db, tokens } = setup();
  const up = tokens.issue('secret.bin', null, 60);
  const rows = db.prepare('SELECT * FROM upload_tokens').all() as Record<string, unknown>[];
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!['token_hash'], createHash('sha256').update(up.token).digest('hex'));
  for (const row of rows) for (const value of Object.values(row)) assert.ok(!String(value).includes(up.token), `a column holds the raw token: ${String(value)}`);
  assert.ok(tokens.claim(up.token), 'the token itself still claims');
  assert.equal(tokens.claim(String(rows[0]!['token_hash'])), undefined, 'the stored hash is not a token');
});

test('upload tokens expire; lifetime is bounded', () => {
  let t = Date.parse('2026-01-01T00:00:00Z');
  const { tokens } = setup(() => new Date(t));
  const up = tokens.issue('k', null, 60);
  assert.equal(up.expiresAt, '2026-01-01T00:01:00.000Z');
  t += 61_000;
  assert.equal(tokens.claim(up.token), undefined);
  assert.throws(() => tokens.issue('k', null, 0), { message: 'expires_in_secs must be an integer from 1 to 86400, got 0' });
  assert.throws(() => tokens.issue('k', null, 86_401), ArtifactRuleError);
  assert.throws(() => tokens.issue('bad/key', null, 10), ArtifactRuleError);
});

test('forgetExecution drops what a pruned execution emitted, not the artifact', async () => {
  const { svc } = setup();
  await svc.put('kept.txt', 'text/plain', new Uint8Array([1]), 'exec-1');
  assert.deepEqual(svc.forExecution('exec-1').map((m) => m.key), ['kept.txt']);
  svc.forgetExecution('exec-1');
  assert.deepEqual(svc.forExecution('exec-1'), []);
  assert.equal(svc.meta('kept.txt')?.execution_id, 'exec-1');
});
