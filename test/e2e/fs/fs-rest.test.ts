// Filesystem labels over REST on a real server process with a directory store: every route and
// status with its exact text, hostile inputs, and a server without --fs-store.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { api, edited, openBackend, TEXT, type Backend } from './fs-helpers.ts';

let backend: Backend;
let server: ServerProcess;
before(async () => {
  backend = await openBackend('dir');
  server = await startServer(backend.flags, { env: backend.env });
});
after(async () => {
  await server?.stop();
  await backend?.close();
});

const HEX = /^[0-9a-f]{64}$/;

test('labels: create, resolve, list, log, repoint; capabilities say filesystem', async () => {
  const b = server.base;
  const t1 = await backend.commit({ 'work/a.txt': 'one\n' });
  const t2 = await backend.commit({ 'work/a.txt': 'two\n' });
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels'), { status: 200, json: { labels: [] } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/labels', { name: 'main', ca_id: t1.toUpperCase(), message: 'first' }), { status: 200, json: { label: 'main', ca_id: t1 } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/labels', { name: 'dev', ca_id: t1 }), { status: 200, json: { label: 'dev', ca_id: t1 } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/labels', { name: 'main', ca_id: t2 }), { status: 200, json: { label: 'main', ca_id: t2 } });
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels'), { status: 200, json: { labels: [{ name: 'dev', ca_id: t1 }, { name: 'main', ca_id: t2 }] } });
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels/main'), { status: 200, json: { label: 'main', ca_id: t2 } });
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels/nope'), { status: 404, json: { error: 'unknown label: nope' } });
  const log = await api(b, 'GET', '/api/fs/labels/main/log');
  assert.equal(log.status, 200);
  assert.deepEqual(log.json.log.map((e: any) => [e.op, e.from, e.to, e.message]), [['create', null, t1, 'first'], ['reset', t1, t2, undefined]]);
  assert.ok(log.json.log.every((e: any) => Number.isInteger(e.at) && !('message' in e && e.message === undefined)));
  assert.deepEqual((await api(b, 'GET', '/api/fs/labels/main/log?limit=1')).json.log.map((e: any) => e.to), [t2]);
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels/main/log?limit=0'), { status: 200, json: { label: 'main', log: [] } });
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels/unknown/log'), { status: 200, json: { label: 'unknown', log: [] } });
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels/main/log?limit=-1'), { status: 400, json: { error: "Invalid query: query parameter 'limit' must be a non-negative integer, got '-1'" } });
  assert.deepEqual(await api(b, 'GET', '/api/capabilities'), { status: 200, json: { filesystem: true, heap: false, sessions: true } });
});

test('push: create, compare-and-set, 409 when the label moved, force, detach, and the errors', async () => {
  const b = server.base;
  const [t1, t2, t3] = await Promise.all(['1', '2', '3'].map((v) => backend.commit({ f: v })));
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t1, label: 'p' }), { status: 200, json: { status: 'advanced', label: 'p', ca_id: t1 } });
  // Without `expected` the label must not exist.
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t2, label: 'p' }), { status: 409, json: { status: 'rejected', label: 'p', current: t1 } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t2, label: 'p', expected: t1, message: 'step' }), { status: 200, json: { status: 'advanced', label: 'p', ca_id: t2 } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t3, label: 'p', expected: t1 }), { status: 409, json: { status: 'rejected', label: 'p', current: t2 } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t3, label: 'fresh', expected: t1 }), { status: 409, json: { status: 'rejected', label: 'fresh', current: null } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t3, label: 'p', expected: t1, force: true }), { status: 200, json: { status: 'advanced', label: 'p', ca_id: t3 } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t1, detach: true }), { status: 200, json: { status: 'detached', ca_id: t1 } });
  assert.deepEqual((await api(b, 'GET', '/api/fs/labels/p/log')).json.log.map((e: any) => `${e.op}:${e.message ?? ''}`), ['create:', 'push:step', 'reset:']);
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t1 }), { status: 400, json: { error: 'fs push requires a label unless detach is true' } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t1, label: 'p', expected: 'abc' }), { status: 400, json: { error: 'invalid expected CA id: abc' } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: 'xyz', label: 'p' }), { status: 400, json: { error: 'invalid CA id: xyz' } });
  const missing = 'e'.repeat(64);
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: missing, label: 'p', force: true }), { status: 400, json: { error: `snapshot ${missing} was not found in the filesystem store` } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t1, label: 'p', expected: t3, message: 'm'.repeat(4097) }), { status: 400, json: { error: 'label message too long: 4097 bytes (max 4096)' } });
  assert.equal((await api(b, 'GET', '/api/fs/labels/p')).json.ca_id, t3, 'failed pushes changed nothing');
});

test('reset: only to ids in the reflog unless allow_unlogged', async () => {
  const b = server.base;
  const [t1, t2, t3] = await Promise.all(['a', 'b', 'c'].map((v) => backend.commit({ g: v })));
  await api(b, 'POST', '/api/fs/push', { ca_id: t1, label: 'r' });
  await api(b, 'POST', '/api/fs/push', { ca_id: t2, label: 'r', expected: t1 });
  assert.deepEqual(await api(b, 'POST', '/api/fs/reset', { label: 'r', ca_id: t3 }), { status: 400, json: { error: `CA id ${t3} is not in the reflog for label 'r'; pass allow_unlogged to reset anyway` } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/reset', { label: 'r', ca_id: t1, message: 'back' }), { status: 200, json: { label: 'r', ca_id: t1 } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/reset', { label: 'r', ca_id: t3, allow_unlogged: true }), { status: 200, json: { label: 'r', ca_id: t3 } });
  assert.deepEqual((await api(b, 'GET', '/api/fs/labels/r/log')).json.log.map((e: any) => [e.op, e.from, e.to]), [['create', null, t1], ['push', t1, t2], ['reset', t2, t1], ['reset', t1, t3]]);
  assert.deepEqual(await api(b, 'POST', '/api/fs/reset', { label: 'r', ca_id: 'nothex' }), { status: 400, json: { error: 'invalid CA id: nothex' } });
});

test('merge: clean 3-way, conflicts of every kind, prefer, 2-way, and the errors', async () => {
  const b = server.base;
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
  const base = await backend.commit({ 'doc.txt': TEXT, 'img.png': png, 'gone.txt': 'x\n', 'kind': 'file\n', 'keep/k.txt': 'k\n' });
  const ours = await backend.commit({ 'doc.txt': edited(3, 'ours 3'), 'img.png': Buffer.from([...png, 3]), 'gone.txt': 'changed\n', 'kind': null, 'kind/inner': 'dir now\n' }, base);
  const theirs = await backend.commit({ 'doc.txt': edited(30, 'theirs 30'), 'img.png': Buffer.from([...png, 4]), 'gone.txt': null, 'new.txt': 'new\n' }, base);
  const r = await api(b, 'POST', '/api/fs/merge', { ours, theirs, base });
  assert.equal(r.status, 200);
  assert.equal(r.json.status, 'conflict');
  assert.deepEqual(r.json.conflicts.map((c: any) => [c.path, c.kind]), [['gone.txt', 'modify/delete'], ['img.png', 'binary']]);
  const md = r.json.conflicts[0];
  assert.equal(md.theirs, null);
  assert.match(md.ours, HEX);
  assert.ok(!('markers' in md) && !('markers' in r.json.conflicts[1]));
  // Resolved by preference: conflicts take that side, everything else still merges.
  const pref = await api(b, 'POST', '/api/fs/merge', { ours, theirs, base, prefer: ' Theirs ' });
  assert.equal(pref.json.status, 'merged');
  const m = pref.json.ca_id;
  assert.equal(await backend.read(m, 'doc.txt'), edited(30, 'theirs 30', edited(3, 'ours 3')), 'text merged line by line');
  assert.equal(await backend.read(m, 'gone.txt'), undefined);
  assert.equal(await backend.read(m, 'kind/inner'), 'dir now\n');
  assert.equal(await backend.read(m, 'new.txt'), 'new\n');
  assert.equal(await backend.read(m, 'keep/k.txt'), 'k\n');
  // A text conflict carries diff3 markers and unified diffs; a file vs a directory is `type`.
  const o2 = await backend.commit({ 'doc.txt': edited(5, 'ours 5'), 'kind': null, 'kind/x': 'x\n' }, base);
  const t2 = await backend.commit({ 'doc.txt': edited(5, 'theirs 5'), 'kind': 'other\n' }, base);
  const c2 = await api(b, 'POST', '/api/fs/merge', { ours: o2, theirs: t2, base });
  assert.deepEqual(c2.json.conflicts.map((c: any) => [c.path, c.kind]), [['doc.txt', 'text'], ['kind', 'type']]);
  const text = c2.json.conflicts[0];
  assert.equal(text.markers, TEXT.replace('line 5\n', '<<<<<<< ours\nours 5\n||||||| base\nline 5\n=======\ntheirs 5\n>>>>>>> theirs\n'));
  assert.match(text.diff_ours, /--- base\/doc\.txt\n\+\+\+ ours\/doc\.txt\n@@ -3,7 \+3,7 @@\n line 2\n line 3\n line 4\n-line 5\n\+ours 5\n/);
  assert.match(text.diff_theirs, /\+theirs 5\n/);
  // 2-way: a path on one side only is taken; the same path with different content conflicts.
  const a = await backend.commit({ 'x.txt': 'a\n', 'only-a': '1\n' });
  const c = await backend.commit({ 'x.txt': 'c\n', 'only-c': '2\n' });
  const two = await api(b, 'POST', '/api/fs/merge', { ours: a, theirs: c });
  assert.deepEqual(two.json.conflicts.map((x: any) => [x.path, x.kind, x.base]), [['x.txt', 'text', null]]);
  const twoOurs = await api(b, 'POST', '/api/fs/merge', { ours: a, theirs: c, base: null, prefer: 'ours' });
  assert.equal(await backend.read(twoOurs.json.ca_id, 'x.txt'), 'a\n');
  assert.equal(await backend.read(twoOurs.json.ca_id, 'only-c'), '2\n');
  assert.deepEqual(await api(b, 'POST', '/api/fs/merge', { ours: a, theirs: a }), { status: 200, json: { status: 'merged', ca_id: a } });
  // Errors.
  assert.deepEqual(await api(b, 'POST', '/api/fs/merge', { ours: a, theirs: c, prefer: 'sideways' }), { status: 400, json: { error: "invalid prefer 'sideways': expected ours|theirs|none" } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/merge', { ours: 'zz', theirs: c }), { status: 400, json: { error: 'invalid CA id: zz' } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/merge', { ours: a, theirs: c, base: 'q' }), { status: 400, json: { error: 'invalid CA id: q' } });
  const missing = '0'.repeat(64);
  assert.deepEqual(await api(b, 'POST', '/api/fs/merge', { ours: a, theirs: missing }), { status: 400, json: { error: `fs_merge: snapshot ${missing} was not found in the filesystem store` } });
});

test('hostile inputs: traversal, absolute, NUL, huge names, invalid ids, malformed bodies', async () => {
  const b = server.base;
  const t = await backend.commit({ f: 'x' });
  const labelError = (l: string): string => `invalid label name: ${l.length > 80 ? `${l.slice(0, 80)}…` : l}: use 1 to 128 letters, digits, '.', '_', '-', '+' or '@', starting with a letter or digit, and not 64 hex digits (that is a CA id)`;
  for (const name of ['../x', '/abs', 'a/b', 'x\0y', '.hidden', '', 'l'.repeat(129), 'L'.repeat(60_000), 'a'.repeat(64), 'sp ace']) {
    assert.deepEqual(await api(b, 'POST', '/api/fs/labels', { name, ca_id: t }), { status: 400, json: { error: labelError(name) } }, JSON.stringify(name.slice(0, 20)));
  }
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels/..%2Fetc'), { status: 400, json: { error: labelError('../etc') } });
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels/x%00y'), { status: 400, json: { error: labelError('x\0y') } });
  assert.equal((await api(b, 'GET', `/api/fs/labels/${'z'.repeat(5000)}/log`)).status, 400);
  for (const id of ['0'.repeat(63), 'g'.repeat(64), `${'0'.repeat(64)}\0`, `../${'0'.repeat(61)}`]) {
    assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: id, detach: true }), { status: 400, json: { error: `invalid CA id: ${id}` } });
  }
  assert.deepEqual(await api(b, 'POST', '/api/fs/labels', { name: 'n', ca_id: 7 }), { status: 400, json: { error: "Invalid body: field 'ca_id' must be a string, got 7" } });
  assert.equal((await api(b, 'POST', '/api/fs/labels', { name: 'n', ca_id: t, extra: 1 })).status, 400);
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', '{not json'), { status: 400, json: { error: 'Request body is not valid JSON: Expected property name or \'}\' in JSON at position 1 (line 1 column 2)' } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/merge', ''), { status: 400, json: { error: 'Invalid body: the body is empty: send a JSON FsMergeRequest' } });
  assert.deepEqual((await api(b, 'GET', '/api/fs/labels')).json.labels.filter((l: any) => l.name !== 'main' && l.name !== 'dev' && l.name.length > 1), [], 'no hostile label was created');
  // A run asking for a mount with a malformed label is refused at submission (fs-mount.test.ts has the rest).
  assert.deepEqual(await api(b, 'POST', '/api/exec', { code: '1', fs: '../etc' }), { status: 400, json: { error: (await api(b, 'POST', '/api/fs/labels', { name: '../etc', ca_id: t })).json.error } });
});

test('without --fs-store every fs route answers 400 "not configured"', async () => {
  const plain = await startServer([]);
  try {
    const b = plain.base;
    const labels = { status: 400, json: { error: 'fs labels are not configured on this server' } };
    assert.deepEqual(await api(b, 'GET', '/api/fs/labels'), labels);
    assert.deepEqual(await api(b, 'GET', '/api/fs/labels/main'), labels);
    assert.deepEqual(await api(b, 'GET', '/api/fs/labels/main/log'), labels);
    assert.deepEqual(await api(b, 'POST', '/api/fs/labels', { name: 'a', ca_id: 'b' }), labels);
    assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: 'b', label: 'a' }), labels);
    assert.deepEqual(await api(b, 'POST', '/api/fs/reset', { ca_id: 'b', label: 'a' }), labels);
    assert.deepEqual(await api(b, 'POST', '/api/fs/merge', { ours: 'a', theirs: 'b' }), { status: 400, json: { error: 'fs snapshots are not configured on this server' } });
    assert.deepEqual((await api(b, 'GET', '/api/capabilities')).json.filesystem, false);
  } finally {
    await plain.stop();
  }
});
