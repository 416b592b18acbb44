// The QuickJS engine in-process: base image, snapshot → restore, reseeding, build checks, the
// memory cap, and that a VM is never reused dirty (freed memory reads as zero after a reset).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { QuickJSEngine } from '../../../worker/engines/quickjs/quickjs-engine.ts';
import { RunLoop } from '../../../worker/runtime/execute-run.ts';
import { createOps } from '../../../worker/ops/capabilities.ts';
import { TEST_WORKER_SETTINGS } from '../../helpers/worker-settings.ts';

const OPS = createOps(TEST_WORKER_SETTINGS);
import { EngineError, type HostCall } from '../../../worker/engine.ts';
import { HeapImageError, type HeapImage } from '../../../shared/heap-image.ts';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';
import type { Outcome } from '../../../shared/protocol.ts';
import { PRELOADED_PARTS } from '../../../worker/guest/preloaded-parts.ts';
import { guestVersion } from '../../../worker/engines/quickjs/guest-version.ts';

const engine = new QuickJSEngine();
let current: HostCall | undefined;
const trampoline: HostCall = (op, args, bytes) => current!(op, args, bytes);

interface Ran { outcome: Outcome; output: string; image: HeapImage | undefined }

async function run(code: string, opts: { image?: HeapImage; mb?: number; timeoutMs?: number } = {}): Promise<Ran> {
  let output = '';
  const loop = new RunLoop({ runId: 'r', code, timeoutMs: opts.timeoutMs ?? 5000 }, OPS, new Map(), { output: (t) => { output += t; } });
  const realm = await engine.createRealm({ memoryLimitMb: opts.mb ?? 8, hostCall: trampoline, ...(opts.image ? { image: opts.image } : {}) });
  current = loop.hostCall;
  try {
    const outcome = await loop.run(realm);
    const image = outcome.status === 'completed' ? realm.snapshot!() : undefined;
    return { outcome, output, image };
  } finally {
    realm.dispose();
  }
}

function completed(result: string): Outcome {
  return { status: 'completed', result };
}

before(() => engine.warmUp());

test('the base image records the engine build (sha256 of the wasm), the prelude and generation 0', () => {
  const wasm = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
  const m = engine.baseImage.manifest;
  assert.equal(m.build, createHash('sha256').update(readFileSync(wasm)).digest('hex'));
  assert.equal(m.engine, 'quickjs');
  assert.equal(m.generation, 0);
  assert.ok(m.pages >= 82 && m.pages < 256, `base image pages ${m.pages}`);
  assert.equal(engine.baseImage.bytes.byteLength, m.ranges.reduce((n, [, c]) => n + c, 0) * 65536);
});

/** Runs `code` in a fresh realm; the platform parts it fetched, in order, and its output. */
async function partsFetched(code: string): Promise<{ parts: string[]; output: string }> {
  const parts: string[] = [];
  const outer = current;
  const spy: HostCall = (op, args, bytes) => {
    if (op === 'platform.part') parts.push(JSON.parse(String(args)) as string);
    return current!(op, args, bytes);
  };
  let output = '';
  const loop = new RunLoop({ runId: 'r', code, timeoutMs: 5000 }, OPS, new Map(), { output: (t) => { output += t; } });
  const realm = await engine.createRealm({ memoryLimitMb: 8, hostCall: spy });
  current = loop.hostCall;
  try {
    assert.deepEqual(await loop.run(realm), { status: 'completed', result: '' });
  } finally {
    realm.dispose();
    current = outer;
  }
  return { parts, output };
}

test('the preloaded platform parts are in the base image: using them fetches no part source, other parts still load lazily', async () => {
  assert.deepEqual(PRELOADED_PARTS, ['web', 'streams', 'fetch', 'buffer', 'events', 'path']);
  assert.equal(engine.baseImage.manifest.prelude, guestVersion());
  const { parts, output } = await partsFetched([
    'console.log(new URL("http://a/b?c=1").searchParams.get("c"), Buffer.from("hi").toString("hex"), await new Response("x").text());',
    'console.log(typeof new ReadableStream().getReader, require("path").join("a", "b"), typeof require("events").EventEmitter);',
    'console.log(require("util").inspect({ a: 1 }));',
  ].join('\n'));
  assert.equal(output, '1 6869 x\nfunction a/b function\n{ a: 1 }\n');
  assert.deepEqual(parts, ['util']);
});

test('reading node:url\'s URLPattern (as its ES module wrapper does) does not evaluate urlpattern-polyfill; making a URLPattern does', async () => {
  const imported = await partsFetched('const url = { ...require("node:url") }; console.log(typeof url.URLPattern, url.URLPattern === URLPattern);');
  assert.equal(imported.output, 'function true\n');
  assert.ok(imported.parts.includes('urlpattern') && !imported.parts.includes('urlpattern-polyfill'), imported.parts.join());
  const made = await partsFetched('const p = new URLPattern({ pathname: "/:id" }); console.log(p.pathname, p.exec("https://x.com/7").pathname.groups.id);');
  assert.equal(made.output, '/:id 7\n');
  assert.deepEqual(made.parts.filter((p) => p.startsWith('urlpattern')), ['urlpattern', 'urlpattern-polyfill']);
});

test('globals, closures, classes with #private fields, Maps and getters survive snapshot → restore', async () => {
  const first = await run([
    'class Counter { #n = 0; inc() { return ++this.#n; } get n() { return this.#n; } }',
    'let hidden = 40;',
    'globalThis.counter = new Counter();',
    'globalThis.bump = () => ++hidden;',
    'globalThis.m = new Map([["k", [1, 2]]]);',
    'counter.inc(); bump(); counter.n',
  ].join('\n'));
  assert.deepEqual(first.outcome, completed('1'));
  assert.ok(first.image);
  assert.equal(first.image.manifest.generation, 1);
  const second = await run('[counter.inc(), counter.n, bump(), m.get("k"), Object.getPrototypeOf(counter).constructor.name]', { image: first.image });
  assert.deepEqual(second.outcome, completed('[2,2,42,[1,2],"Counter"]'));
  assert.equal(second.image?.manifest.generation, 2);
});

test('a fresh run boots from the base image: nothing of an earlier run is visible', async () => {
  await run('globalThis.leak = 1; Object.prototype.polluted = true');
  assert.deepEqual((await run('[typeof leak, ({}).polluted]')).outcome, completed('["undefined",null]'));
});

test('two restores of one image evolve independently and draw different random numbers', async () => {
  const base = await run('globalThis.log = []; 0');
  const a = await run('log.push("a"); [log, Math.random()]', { image: base.image });
  const b = await run('log.push("b"); [log, Math.random()]', { image: base.image });
  const [logA, ra] = JSON.parse((a.outcome as { result: string }).result) as [string[], number];
  const [logB, rb] = JSON.parse((b.outcome as { result: string }).result) as [string[], number];
  assert.deepEqual([logA, logB], [['a'], ['b']]);
  assert.notEqual(ra, rb);
  assert.ok(ra >= 0 && ra < 1 && rb >= 0 && rb < 1);
});

test('Math.random is reseeded on every boot from the base image too', async () => {
  const values = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const { outcome } = await run('Math.random()');
    assert.equal(outcome.status, 'completed');
    values.add(JSON.stringify(outcome));
  }
  assert.equal(values.size, 3);
});

test('an image from another engine build is refused with a clear error', async () => {
  const { image } = await run('1');
  assert.ok(image);
  const foreign = { manifest: { ...image.manifest, build: 'f'.repeat(64) }, bytes: image.bytes };
  await assert.rejects(engine.createRealm({ memoryLimitMb: 8, hostCall: trampoline, image: foreign }), (e: unknown) =>
    e instanceof HeapImageError && /^Heap image was made by QuickJS build ffffffffffff, this worker runs build [0-9a-f]{12}; images restore only on the engine build that made them$/.test(e.message));
});

test('an image from another guest platform version (prelude, bridge, platform parts) is refused with a clear error', async () => {
  const { image } = await run('1');
  assert.ok(image);
  assert.match(image.manifest.prelude, /^[0-9a-f]{16}$/);
  assert.equal(image.manifest.prelude, engine.baseImage.manifest.prelude);
  const older = { manifest: { ...image.manifest, prelude: '0123456789abcdef' }, bytes: image.bytes };
  await assert.rejects(engine.createRealm({ memoryLimitMb: 8, hostCall: trampoline, image: older }), (e: unknown) =>
    e instanceof HeapImageError && e.message === `Heap image was made with guest platform 0123456789abcdef, this worker runs ${image.manifest.prelude}; images restore only on the runjs version whose guest platform made them`);
});

test('an image larger than the memory cap cannot be restored: out of memory', async () => {
  const big = await run('globalThis.keep = []; for (let i = 0; i < 200000; i++) keep.push({ i }); keep.length', { mb: 64 });
  assert.deepEqual(big.outcome, completed('200000'));
  await assert.rejects(engine.createRealm({ memoryLimitMb: 8, hostCall: trampoline, image: big.image! }), (e: unknown) => e instanceof EngineError && e.kind === 'out-of-memory');
  assert.deepEqual((await run('keep.length', { image: big.image!, mb: 64 })).outcome, completed('200000'));
});

test('the memory cap holds; the next run is clean and its fresh memory reads as zero', async () => {
  const flood = await run('const a = []; while (true) { const b = new Uint8Array(65536); b.fill(255); a.push(b) }');
  assert.deepEqual(flood.outcome, { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY });
  // The allocator hands out memory above its break as already zeroed: a reset must clear it.
  const check = await run('const xs = []; let ok = true; for (let i = 0; i < 64; i++) { const b = new Uint8Array(65536); xs.push(b); if (b.some((v) => v !== 0)) ok = false } [ok, typeof a]');
  assert.deepEqual(check.outcome, completed('[true,"undefined"]'));
});

test('a larger heap_memory_max_mb allows what 8 MB refuses', async () => {
  const code = 'const a = []; for (let i = 0; i < 300000; i++) a.push({ i }); a.length';
  assert.deepEqual((await run(code)).outcome, { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY });
  assert.deepEqual((await run(code, { mb: 128 })).outcome, completed('300000'));
});

test('the whole heap_memory_max_mb is usable: 1 MiB ArrayBuffers fill a 128 MB cap exactly', async () => {
  // The glue over-grows memory by 5–20 %; near the cap it is asked for exactly what is needed.
  const { outcome, output } = await run('const k = []; while (true) { k.push(new ArrayBuffer(1 << 20)); console.log(k.length) }', { mb: 128 });
  assert.deepEqual(outcome, { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY });
  assert.equal(output.trim().split('\n').at(-1), '128');
});

test('a cap above what wasm32 addresses (2 GiB) is clamped to it, not refused', async () => {
  assert.equal(engine.capPages(4096), 32768);
  assert.equal(engine.capPages(2048), 32768);
  assert.equal(engine.capPages(64), engine.baseImage.manifest.pages + 1024);
  assert.deepEqual((await run('1 + 1', { mb: 4096 })).outcome, completed('2'));
});

test('interrupts stop loops, loops in finally and catastrophic regexes at the deadline', async () => {
  for (const code of ['while (true) {}', 'try { while (true) {} } finally { while (true) {} }', '/(a+)+$/.test("a".repeat(40) + "b")']) {
    const t0 = performance.now();
    const { outcome } = await run(code, { timeoutMs: 150 });
    const ms = performance.now() - t0;
    assert.deepEqual(outcome, { status: 'timed_out', error: EXECUTION_ERRORS.TIMED_OUT }, code);
    // Generous: without the interrupt the loop never ends; the bound only says "at the deadline, not later".
    assert.ok(ms < 5000, `${code} stopped after ${ms} ms`);
  }
  assert.deepEqual((await run('"still fine"')).outcome, completed('"still fine"'));
});

test('deep recursion is a guest RangeError the script can catch', async () => {
  const { outcome } = await run('function f(): number { return f() + 1 }\nlet r; try { f() } catch (e) { r = [e instanceof RangeError, e.name, e.message] } r');
  assert.deepEqual(outcome, completed('[true,"RangeError","stack overflow"]'));
});

test('WebAssembly is absent', async () => {
  assert.deepEqual((await run('typeof WebAssembly')).outcome, completed('"undefined"'));
});
