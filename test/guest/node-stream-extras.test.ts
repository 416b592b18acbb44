// node:stream's web adapters (Readable/Writable/Duplex .toWeb/.fromWeb), process.stdout as a
// pipeline destination, node:stream/consumers, and the small modules pasted code reaches for
// (perf_hooks, module, async_hooks, worker_threads). Each case runs in the sandbox on both engines
// and in the host Node; the results must match.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { guestSuite } from '../helpers/both-engines.ts';
import { guestJson } from '../helpers/guest-json.ts';

const hostRequire = createRequire(import.meta.url);
const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (req: NodeJS.Require) => Promise<unknown>;

/** Bodies of async functions (with `require`) whose JSON results must match Node's. */
const CASES: Record<string, string> = {
  'Readable.toWeb (object mode)': `const { Readable } = require('stream'); const rd = Readable.toWeb(Readable.from(['x', 'y'])).getReader(); const out = []; for (;;) { const { done, value } = await rd.read(); if (done) break; out.push(value); } return out;`,
  'Readable.toWeb (bytes become Uint8Array)': `const { Readable } = require('stream'); const out = []; for await (const c of Readable.toWeb(Readable.from([Buffer.from('ab'), Buffer.from('c')], { objectMode: false }))) out.push(c.constructor.name, Array.from(c)); return out;`,
  'Readable.fromWeb': `const { Readable } = require('stream'); const r = Readable.fromWeb(new ReadableStream({ start(c) { c.enqueue('p'); c.enqueue('q'); c.close(); } }), { objectMode: true }); const got = []; for await (const c of r) got.push(c); return [got, r instanceof Readable];`,
  'Readable.fromWeb of bytes, with encoding': `const { Readable } = require('stream'); const r = Readable.fromWeb(new Blob(['héllo']).stream(), { encoding: 'utf8' }); let s = ''; for await (const c of r) s += c; return s;`,
  'Readable.fromWeb rejects a non-stream': `const { Readable } = require('stream'); try { Readable.fromWeb({}); return 'no error'; } catch (e) { return [e.code, e.name]; }`,
  'Writable.toWeb': `const { Writable } = require('stream'); const chunks = []; const w = Writable.toWeb(new Writable({ write(c, e, cb) { chunks.push([Buffer.isBuffer(c), String(c)]); cb(); } })).getWriter(); await w.write(new TextEncoder().encode('hi')); await w.write(new Uint8Array([33])); await w.close(); return chunks;`,
  'Writable.fromWeb': `const { Writable } = require('stream'); const items = []; const nw = Writable.fromWeb(new WritableStream({ write(c) { items.push(c); } }), { objectMode: true }); nw.write('a'); nw.end('b'); await new Promise((r) => nw.on('finish', r)); return items;`,
  'pipeline through toWeb/fromWeb and a TransformStream': `const { Readable, Writable } = require('stream'); const { pipeline } = require('stream/promises'); const got = []; await pipeline(Readable.fromWeb(Readable.toWeb(Readable.from(['a', 'b'])).pipeThrough(new TransformStream({ transform(c, ctl) { ctl.enqueue(c.toUpperCase()); } })), { objectMode: true }), new Writable({ objectMode: true, write(c, e, cb) { got.push(c); cb(); } })); return got;`,
  'Duplex.fromWeb / toWeb': `const { Duplex } = require('stream'); const t = new TransformStream({ transform(c, ctl) { ctl.enqueue(String(c) + '!'); } }); const d = Duplex.fromWeb(t, { objectMode: true }); d.end('x'); const out = []; for await (const c of d) out.push(c); const pair = Duplex.toWeb(new (require('stream').PassThrough)()); return [out, typeof pair.readable.getReader, typeof pair.writable.getWriter];`,
  'stream/consumers': `const c = require('stream/consumers'); const { Readable } = require('stream'); return [await c.text(Readable.from(['a', 'é'])), await c.text(Readable.from([Buffer.from([0xe2, 0x82]), Buffer.from([0xac])])), await c.json(Readable.from(['{"x":', '1}'])), (await c.buffer(Readable.from([Buffer.from('hi')]))).toString('hex'), (await c.arrayBuffer(new Blob(['abc']).stream())).byteLength, await (await c.blob(Readable.from(['zz']))).text(), Array.from(await c.bytes(Readable.from(['ok']))), Object.keys(c).sort()];`,
  'node:stream/consumers by its prefixed name, from an async iterable': `const { text } = require('node:stream/consumers'); return text((async function* () { yield 'a'; yield 'b'; })());`,
  'readline over a stream: lines (\\n, \\r\\n, \\r), async iteration, question and its promisified form': `const readline = require('readline'); const { Readable } = require('stream'); const { promisify } = require('util'); const got = []; const rl = readline.createInterface({ input: Readable.from(['a\\nb', '\\r\\nc\\rd\\n', 'e']) }); rl.on('line', (l) => got.push(l)); await new Promise((r) => rl.on('close', r)); const it = []; for await (const l of readline.createInterface({ input: Readable.from(['x\\ny\\n']) })) it.push(l); const out = []; const output = { write(s, cb) { out.push(s); if (cb) cb(); return true; } }; const q = readline.createInterface({ input: Readable.from(['yes\\n']), output }); const a1 = await new Promise((r) => q.question('one? ', r)); const q2 = readline.createInterface({ input: Readable.from(['no\\n']), output }); const a2 = await promisify(q2.question).call(q2, 'two? '); const rp = require('node:readline/promises').createInterface({ input: Readable.from(['p\\n']), output }); return [got, it, a1, a2, await rp.question('three? '), out, promisify(readline.Interface.prototype.question).name, Object.keys(readline).sort(), Object.keys(require('readline/promises')).sort()];`,
  'perf_hooks': `const ph = require('perf_hooks'); return [typeof ph.performance.now(), ph.performance === globalThis.performance, typeof ph.PerformanceEntry, require('node:perf_hooks') === ph];`,
  'module.createRequire and isBuiltin': `const { createRequire, builtinModules, isBuiltin } = require('module'); const r = createRequire('/main.js'); return [r('path').sep, r('node:path') === require('path'), Array.isArray(builtinModules), builtinModules.includes('path'), builtinModules.includes('stream/consumers'), isBuiltin('node:path'), isBuiltin('events'), isBuiltin('nope')];`,
  'async_hooks AsyncLocalStorage (synchronous context)': `const { AsyncLocalStorage, AsyncResource, executionAsyncId } = require('async_hooks'); const als = new AsyncLocalStorage(); const seen = als.run({ id: 1 }, (x) => [als.getStore(), x, als.run(2, () => als.getStore()), als.getStore()], 'arg'); const outside = als.getStore(); const exited = als.run(3, () => als.exit(() => als.getStore())); als.enterWith(4); const entered = als.getStore(); als.disable(); const r = new AsyncResource('X'); return [seen, outside, exited, entered, als.getStore(), r.runInAsyncScope((a) => a * 2, null, 21), typeof executionAsyncId(), typeof r.asyncId()];`,
  'async_hooks AsyncLocalStorage follows timers, immediates, microtasks and ticks': `const { AsyncLocalStorage, AsyncResource } = require('async_hooks'); const timers = require('timers'); const als = new AsyncLocalStorage(); const seen = []; await new Promise((done) => { als.run('ctx', () => { setTimeout(() => seen.push(['timeout', als.getStore()]), 1); timers.setTimeout(() => seen.push(['node timeout', als.getStore()]), 2); const iv = timers.setInterval(() => { seen.push(['interval', als.getStore()]); timers.clearInterval(iv); }, 1); setImmediate(() => seen.push(['immediate', als.getStore()])); queueMicrotask(() => seen.push(['microtask', als.getStore()])); process.nextTick(() => seen.push(['tick', als.getStore()])); const bound = AsyncLocalStorage.bind(() => als.getStore()); const snap = AsyncLocalStorage.snapshot(); const r = new AsyncResource('R'); als.run('inner', () => setTimeout(() => seen.push(['nested', als.getStore()]), 1)); setTimeout(() => { seen.push(['bound', bound()], ['snapshot', snap(() => als.getStore())], ['resource', r.runInAsyncScope(() => als.getStore())], ['exit', als.exit(() => als.getStore())]); done(); }, 20); }); }); seen.push(['outside', als.getStore()]); return seen.sort((a, b) => (a[0] < b[0] ? -1 : 1));`,
  'worker_threads on the main thread': `const wt = require('worker_threads'); return [wt.isMainThread, wt.parentPort, wt.threadId, wt.workerData];`,
};

guestSuite('node:stream extras and small modules', (g) => {
  for (const [title, body] of Object.entries(CASES)) {
    g.test(`differential: ${title}`, async (ctx) => {
      const host = JSON.parse(JSON.stringify(await new AsyncFunction('require', body)(hostRequire))) as unknown;
      assert.deepEqual(await guestJson(ctx, body), host);
    });
  }

  g.test('pipeline(src, process.stdout) settles, and stdout stays writable afterwards (as in Node)', async (ctx) => {
    assert.equal(await ctx.output([
      'const { pipeline } = require("node:stream/promises"); const { Readable } = require("node:stream");',
      'await pipeline(Readable.from(["a\\n", "b\\n"]), process.stdout);',
      'console.log("done", process.stdout.writableEnded, process.stdout.writable, process.stdout.isTTY);',
      'process.stdout.write("after\\n");',
      'require("stream").pipeline(Readable.from([Buffer.from("x\\n")]), process.stderr, (err) => console.log("cb", err));',
    ].join('\n')), 'a\nb\ndone false true false\nafter\nx\ncb undefined\n');
  });

  g.test('the new modules have named ESM exports, with or without node:', async (ctx) => {
    assert.equal(await ctx.output([
      'import { text } from "node:stream/consumers"; import { AsyncLocalStorage } from "async_hooks"; import { createRequire } from "node:module";',
      'import { performance } from "perf_hooks"; import { isMainThread } from "node:worker_threads";',
      'console.log(await text(new Blob(["ok"]).stream()), typeof AsyncLocalStorage, createRequire(import.meta.url)("os").EOL === "\\n", typeof performance.now, isMainThread);',
    ].join('\n')), 'ok function true function true\n');
  });

  g.test('AsyncLocalStorage context does not follow an await (documented limit)', async (ctx) => {
    assert.equal(await ctx.output([
      'const { AsyncLocalStorage } = require("node:async_hooks"); const als = new AsyncLocalStorage();',
      'await als.run(7, async () => { console.log(als.getStore()); await null; console.log(als.getStore()); });',
    ].join('\n')), '7\nundefined\n');
  });

  g.test('worker_threads.Worker and perf_hooks.PerformanceObserver fail clearly', async (ctx) => {
    assert.equal(await ctx.output([
      'const { Worker } = require("worker_threads"); const { PerformanceObserver } = require("perf_hooks");',
      'for (const C of [Worker, PerformanceObserver]) { try { new C("x"); } catch (e) { console.log(e.code, e.message); } }',
    ].join('\n')), [
      'ERR_UNSUPPORTED_OPERATION worker_threads.Worker is not supported in runjs: a run is one script in one thread',
      'ERR_UNSUPPORTED_OPERATION PerformanceObserver is not supported in runjs: a run is one script in one thread',
      '',
    ].join('\n'));
  });
});
