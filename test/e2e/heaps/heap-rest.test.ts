// Heap persistence end to end over REST with real server processes and a dir store: state
// survives, forks diverge, a second server on the same store continues a heap, tags and the
// session log round-trip, and every error path is an error (never a silent fresh start).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { createBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { call, CHECK, run, runFailed, SETUP, submit, wait } from './heap-helpers.ts';

let heapDir: string;
let a: ServerProcess;
before(async () => {
  heapDir = mkdtempSync(join(tmpdir(), 'runjs-heaps-'));
  // A ceiling above what QuickJS addresses: the effective per-call maximum is QuickJS's 2048.
  a = await startServer(['--heap-store', 'dir', '--heap-dir', heapDir, '--heap-memory-ceiling', '4096']);
});
after(async () => {
  await a.stop();
  rmSync(heapDir, { recursive: true, force: true });
});

test('capabilities report heap and sessions', async () => {
  const r = await call(a.base, 'GET', '/api/capabilities');
  assert.deepEqual(r.json, { filesystem: false, heap: true, sessions: true });
});

test('heap_memory_max_mb is limited to 2048 with a heap store (QuickJS addresses 2 GiB), whatever the ceiling; 2048 itself runs', async () => {
  const r = await call(a.base, 'POST', '/api/exec', { code: '1', heap_memory_max_mb: 2049 });
  assert.deepEqual([r.status, r.json], [400, { error: 'heap_memory_max_mb must be an integer from 8 to 2048 (smaller values are raised to 8), got 2049' }]);
  assert.equal((await run(a.base, { code: '1 + 1', heap_memory_max_mb: 2048 })).value, 2);
});

test('globals, functions, closures and class instances survive; two runs from one key diverge', async () => {
  const first = await run(a.base, { code: SETUP });
  assert.equal(first.value, 'ok');
  const again = await run(a.base, { code: CHECK, heap: first.heap });
  assert.deepEqual(again.value, ['hello', [1, 2, 3], 15, 42, 2, true, 'main', 2]);
  assert.notEqual(again.heap, first.heap);
  const [left, right] = await Promise.all([
    run(a.base, { code: `globalThis.side = 'left'; list.push(4); [c.inc(), list.length]`, heap: first.heap }),
    run(a.base, { code: `globalThis.side = 'right'; [c.inc(), list.length]`, heap: first.heap }),
  ]);
  assert.deepEqual([left.value, right.value], [[2, 4], [2, 3]]);
  const l2 = await run(a.base, { code: '[side, list.length, c.count]', heap: left.heap });
  const r2 = await run(a.base, { code: '[side, list.length, c.count]', heap: right.heap });
  assert.deepEqual([l2.value, r2.value], [['left', 4, 2], ['right', 3, 2]]);
  // The parent is untouched by its children.
  assert.deepEqual((await run(a.base, { code: '[typeof side, c.count]', heap: first.heap })).value, ['undefined', 1]);
  // Without `heap` a run starts fresh.
  assert.deepEqual((await run(a.base, { code: 'typeof greeting' })).value, 'undefined');
});

test('top-level declarations persist like a REPL: let/const/var/function/class, destructuring, enums', async () => {
  const one = await run(a.base, { code: [
    'let count = 0;',
    'const inc = () => ++count;',
    'function helper() { return "old"; }',
    'function main() { return `${helper()}:${count}`; }',
    'class Point { constructor(public x: number) {} }',
    'enum Color { Red, Green }',
    'var v = 7;',
    'const { a, b: [c = 3], ...rest } = { a: 1, b: [], d: 4 };',
    'for (let i = 0; i < 2; i++) inc();',
    'count',
  ].join('\n') });
  assert.equal(one.value, 2);
  const two = await run(a.base, { code: [
    'function helper() { return "new"; }', // redefined: functions from run 1 see the new one
    'let count2 = count + 10;',
    'count = count2;',
    'var v;', // a bare var keeps the value it had
    '[inc(), main(), new Point(3).x, Color.Green, v, a, c, rest, helper.name, typeof i]',
  ].join('\n'), heap: one.heap });
  assert.deepEqual(two.value, [13, 'new:13', 3, 1, 7, 1, 3, { d: 4 }, 'helper', 'undefined']);
  // Re-running a declaration (a REPL cell run twice) is not a redeclaration error.
  assert.equal((await run(a.base, { code: 'let count = 100; const inc = () => count--; inc(); count', heap: two.heap })).value, 99);
  // A declared function keeps its name in stack traces.
  const thrown = await runFailed(a.base, { code: 'function boom() { throw new Error("x"); }\nboom()', heap: one.heap });
  assert.match(thrown.error!, /at boom \(file:\/\/\/main\.js:/);
});

test('a second server process sharing the store continues a heap', async () => {
  const first = await run(a.base, { code: SETUP });
  const b = await startServer(['--heap-store', 'dir', '--heap-dir', heapDir]);
  try {
    const cont = await run(b.base, { code: CHECK, heap: first.heap });
    assert.deepEqual(cont.value, ['hello', [1, 2, 3], 15, 42, 2, true, 'main', 2]);
    // And back on the first server from the second's key.
    assert.deepEqual((await run(a.base, { code: 'nextSecret()', heap: cont.heap })).value, 43);
  } finally {
    await b.stop();
  }
});

test('a chain longer than a worker\'s image cache (capture buffers reused) keeps every state: each key resumes its own', async () => {
  let { heap } = await run(a.base, { code: 'globalThis.log = []; log.length' });
  const keys = [heap];
  for (let i = 1; i <= 12; i++) {
    const step = await run(a.base, { code: `log.push(${i}); log.join()`, heap });
    assert.equal(step.value, Array.from({ length: i }, (_, k) => k + 1).join());
    heap = step.heap;
    keys.push(heap);
  }
  // Oldest first: the workers evicted these long ago, so they are rebuilt from the store, verified.
  const lengths = [];
  for (const key of keys) lengths.push((await run(a.base, { code: 'log.length', heap: key })).value);
  assert.deepEqual(lengths, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
});

test('malformed heap keys are 400; an unknown key fails the execution naming the key, not the store directory', async () => {
  for (const heap of ['nope', 'A'.repeat(64), '../etc/passwd', 'a'.repeat(63)]) {
    const r = await call(a.base, 'POST', '/api/exec', { code: '1', heap });
    assert.equal(r.status, 400, heap);
    assert.match(r.json.error, /invalid heap key/);
  }
  const unknown = 'f'.repeat(64);
  const info = await runFailed(a.base, { code: 'globalThis.x = 1', heap: unknown });
  assert.equal(info.error, `cannot restore heap: heap ${unknown} was not found in the heap store; it was never stored there, or the store was changed or cleaned`);
  assert.ok(!info.error.includes(heapDir), info.error);
  // The operator still learns where it looked: a warning in the server log.
  assert.ok(a.stderr().includes(`runjs: warn: execution ${info.execution_id}: cannot restore heap ${unknown} from dir:${heapDir}: heap ${unknown} was not found`), a.stderr());
});

test('a stored object that is not a heap, or a failing run, never yields a heap', async () => {
  const blobs = createBlobStore({ backend: 'dir', dir: heapDir });
  const notHeap = await blobs.put(Buffer.from('{"type":"something-else"}'));
  const info = await runFailed(a.base, { code: '1', heap: notHeap });
  assert.match(info.error!, new RegExp(`heap ${notHeap} is corrupt`));
  const base = await run(a.base, { code: 'globalThis.n = 1; n' });
  const bad = await runFailed(a.base, { code: 'n = 2; throw new Error("boom")', heap: base.heap });
  assert.match(bad.error!, /boom/);
  assert.equal((await run(a.base, { code: 'n', heap: base.heap })).value, 1, 'a failed run leaves its input heap as it was');
  const timedOut = await wait(a.base, await submit(a.base, { code: 'n = 3; while (true) {}', heap: base.heap, execution_timeout_secs: 1 }));
  assert.equal(timedOut.status, 'timed_out');
  assert.equal(timedOut.heap, null);
  const id = await submit(a.base, { code: 'await new Promise((r) => setTimeout(r, 5000))', heap: base.heap });
  assert.equal((await call(a.base, 'POST', `/api/executions/${id}/cancel`)).status, 200);
  const cancelled = await wait(a.base, id);
  assert.equal(cancelled.status, 'cancelled');
  assert.equal(cancelled.heap, null);
});

test('tags attach to the resulting heap, round-trip, replace, delete and query', async () => {
  const p = await run(a.base, { code: 'globalThis.v = 1', tags: { project: 'alpha', stage: 'dev' } });
  const q = await run(a.base, { code: 'v = 2', heap: p.heap, tags: { project: 'alpha', stage: 'prod' } });
  assert.deepEqual((await call(a.base, 'GET', `/api/heaps/${p.heap}/tags`)).json, { heap: p.heap, tags: { project: 'alpha', stage: 'dev' } });
  const query = async (tags: Record<string, string>) => (await call(a.base, 'POST', '/api/heaps/query', { tags })).json.results.map((r: { heap: string }) => r.heap).sort();
  assert.deepEqual(await query({ project: 'alpha' }), [p.heap, q.heap].sort());
  assert.deepEqual(await query({ project: 'alpha', stage: 'prod' }), [q.heap]);
  assert.deepEqual(await query({ project: 'ALPHA' }), []);
  const put = await call(a.base, 'PUT', `/api/heaps/${p.heap}/tags`, { tags: { owner: 'me', x: '1' } });
  assert.deepEqual(put.json, { heap: p.heap, tags: { owner: 'me', x: '1' } });
  assert.deepEqual(await query({ project: 'alpha' }), [q.heap], 'set replaces');
  const del = await call(a.base, 'DELETE', `/api/heaps/${p.heap}/tags?keys=x,%20nope`);
  assert.deepEqual(del.json.tags, { owner: 'me' });
  assert.deepEqual((await call(a.base, 'DELETE', `/api/heaps/${p.heap}/tags`)).json.tags, {});
  assert.equal((await call(a.base, 'GET', '/api/heaps/zzz/tags')).status, 400);
  assert.equal((await call(a.base, 'PUT', `/api/heaps/${p.heap}/tags`, { tags: { n: 1 } })).status, 400);
  assert.equal((await call(a.base, 'POST', '/api/exec', { code: '1', tags: { ['k'.repeat(200)]: 'v' } })).status, 400);
});

test('sessions tag and log every completed run; only `heap` picks the starting point', async () => {
  const s = `s-${Date.now()}`;
  const one = await run(a.base, { code: 'globalThis.steps = ["one"]; steps.length', session: s });
  const two = await run(a.base, { code: 'steps.push("two"); steps', session: s, heap: one.heap });
  assert.deepEqual(two.value, ['one', 'two']);
  const fresh = await run(a.base, { code: 'typeof steps', session: s });
  assert.equal(fresh.value, 'undefined', 'no heap: a fresh isolate, even in a session with history');
  await runFailed(a.base, { code: 'steps.push("bad"); throw new Error("x")', session: s, heap: two.heap });
  const three = await run(a.base, { code: 'steps.push("three"); steps', session: s, heap: two.heap });
  assert.deepEqual(three.value, ['one', 'two', 'three'], 'a failed run is not logged and changes nothing');
  const log = await call(a.base, 'GET', `/api/sessions/${encodeURIComponent(s)}/snapshots`);
  assert.equal(log.status, 200);
  assert.deepEqual(log.json.map((e: { index: number; input_heap: string | null; output_heap: string }) => [e.index, e.input_heap, e.output_heap]), [
    [0, null, one.heap], [1, one.heap, two.heap], [2, null, fresh.heap], [3, two.heap, three.heap],
  ]);
  assert.equal(log.json[0].code, 'globalThis.steps = ["one"]; steps.length');
  assert.equal(log.json[0].output_fs, null);
  assert.ok(!Number.isNaN(Date.parse(log.json[0].timestamp)));
  assert.ok((await call(a.base, 'GET', '/api/sessions')).json.sessions.includes(s));
  assert.deepEqual((await call(a.base, 'GET', '/api/sessions/never-used/snapshots')).json, []);
});

test('without a heap store: heap, tags and sessions are 400 and capabilities say so', async () => {
  const plain = await startServer([]);
  try {
    assert.deepEqual((await call(plain.base, 'GET', '/api/capabilities')).json, { filesystem: false, heap: false, sessions: false });
    assert.equal((await call(plain.base, 'POST', '/api/exec', { code: '1', heap: 'a'.repeat(64) })).status, 400);
    const snaps = await call(plain.base, 'GET', '/api/sessions/x/snapshots');
    assert.equal(snaps.status, 400);
    assert.match(snaps.json.error, /sessions are not configured/);
    assert.equal((await call(plain.base, 'GET', `/api/heaps/${'a'.repeat(64)}/tags`)).status, 400);
    const info = await wait(plain.base, await submit(plain.base, { code: '1', session: 'x' }));
    assert.equal(info.status, 'completed');
    assert.equal(info.heap, null);
  } finally {
    await plain.stop();
  }
});

test('a store that cannot be written fails the run with the store\'s error and keeps nothing half-done', async () => {
  const { writeFileSync } = await import('node:fs');
  const blocker = join(heapDir, 'not-a-dir');
  writeFileSync(blocker, 'x');
  const broken = await startServer(['--heap-store', 'dir', '--heap-dir', join(blocker, 'heaps')]);
  try {
    const info = await runFailed(broken.base, { code: 'globalThis.x = 1; x', session: 'doomed' });
    assert.match(info.error!, /the run completed but its heap could not be stored: blob store I\/O error/);
    assert.deepEqual((await call(broken.base, 'GET', '/api/sessions/doomed/snapshots')).json, [], 'nothing logged');
  } finally {
    await broken.stop();
  }
});

test('a corrupted payload on disk fails the restore on a server that has to read it', async () => {
  const { readFileSync, writeFileSync } = await import('node:fs');
  const stored = await run(a.base, { code: 'globalThis.precious = [1, 2, 3]; 0' });
  const recordPath = join(heapDir, stored.heap.slice(0, 2), stored.heap.slice(2));
  const record = JSON.parse(readFileSync(recordPath, 'utf8')) as { payload: string };
  const payloadPath = join(heapDir, record.payload.slice(0, 2), record.payload.slice(2));
  const bytes = readFileSync(payloadPath);
  bytes[bytes.length >> 1]! ^= 0x01;
  writeFileSync(payloadPath, bytes);
  const fresh = await startServer(['--heap-store', 'dir', '--heap-dir', heapDir]);
  try {
    const info = await runFailed(fresh.base, { code: 'precious', heap: stored.heap });
    assert.match(info.error!, new RegExp(`cannot restore heap: heap ${stored.heap} is corrupt and was not restored: blob ${record.payload}`));
  } finally {
    await fresh.stop();
  }
});

test('a corrupted record on disk fails the restore naming the key; nothing runs', async () => {
  const { readFileSync, writeFileSync, rmSync: rm } = await import('node:fs');
  const stored = await run(a.base, { code: 'globalThis.kept = 1; 0' });
  const recordPath = join(heapDir, stored.heap.slice(0, 2), stored.heap.slice(2));
  const text = readFileSync(recordPath, 'utf8');
  rm(recordPath, { force: true });
  writeFileSync(recordPath, text.replace('"depth":', '"depth" :'));
  const fresh = await startServer(['--heap-store', 'dir', '--heap-dir', heapDir]);
  try {
    const info = await runFailed(fresh.base, { code: 'globalThis.sideEffect = 1; kept', heap: stored.heap });
    assert.match(info.error!, new RegExp(`^cannot restore heap: heap ${stored.heap} is corrupt and was not restored: blob ${stored.heap} `));
  } finally {
    await fresh.stop();
  }
});

test('session names: leading or trailing whitespace is a 400', async () => {
  for (const session of [' padded', 'padded ', '   ']) {
    const r = await call(a.base, 'POST', '/api/exec', { code: '1', session });
    assert.equal(r.status, 400, session);
    assert.match(r.json.error, /invalid session name: session must not (begin or end with whitespace|be empty)/);
  }
});
