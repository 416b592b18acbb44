// The node: builtin modules (issue 7): buffer (with a differential corpus of encodings), path,
// events, querystring, string_decoder, os, process, timers, url, console, zlib, crypto, stream,
// and the resolution rules (node: prefix optional, clear errors for the rest, require()).
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import querystring from 'node:querystring';
import { guestSuite } from '../helpers/both-engines.ts';
import { guestJson } from '../helpers/guest-json.ts';

const STRINGS = ['', 'hello', 'héllo wörld', '€😀', '\u0000\u00ff\u0100', 'a'.repeat(33), 'with\nnewline', 'AAEC/w==', 'AAEC_w', '0a0B1c', 'zz!', '\ud800x'];
const ENCODINGS = ['utf8', 'utf16le', 'latin1', 'ascii', 'base64', 'base64url', 'hex', 'binary', 'ucs2'];

function bufferCorpus(B: typeof Buffer, strings: string[], encodings: string[]): unknown[] {
  const out: unknown[] = [];
  for (const s of strings) {
    for (const e of encodings) {
      const enc = e as BufferEncoding;
      const b = B.from(s, enc);
      out.push([Array.from(b), B.byteLength(s, enc)]);
      for (const back of encodings) out.push(b.toString(back as BufferEncoding));
    }
  }
  const bytes = B.from([0, 1, 127, 128, 200, 255, 62, 63]);
  out.push(bytes.readUInt16LE(0), bytes.readInt32BE(2), bytes.readBigUInt64LE(0).toString(), bytes.readDoubleLE(0), bytes.toJSON(), B.compare(bytes, B.alloc(8)), bytes.indexOf(200), bytes.includes(B.from([127, 128])));
  out.push(B.concat([B.from('ab'), B.from('cd')]).toString(), B.alloc(4, 'ab').toString(), bytes.subarray(1, 3).toString('hex'), bytes.slice(-2).toString('base64'), B.isEncoding('base64url'), B.isBuffer(bytes), bytes.equals(B.from(bytes)));
  const w = B.alloc(10); w.writeUInt32BE(0xdeadbeef, 1); w.write('hi', 6); w.fill(7, 8); out.push(w.toString('hex'));
  return out;
}

guestSuite('node: modules', (g) => {
  g.test(`differential: Buffer over ${STRINGS.length} strings × ${ENCODINGS.length} encodings, plus numbers and helpers, matches Node`, async (ctx) => {
    const guest = await guestJson<unknown[]>(ctx, `const { Buffer: B } = require('node:buffer');\n${bufferCorpus.toString()}\nreturn bufferCorpus(B, ${JSON.stringify(STRINGS)}, ${JSON.stringify(ENCODINGS)});`);
    const host = JSON.parse(JSON.stringify(bufferCorpus(Buffer, STRINGS, ENCODINGS))) as unknown[];
    assert.equal(guest.length, host.length);
    for (let i = 0; i < host.length; i++) assert.deepEqual(guest[i], host[i], `case ${i}`);
  });

  g.test('Buffer is a global too, and node:buffer carries Node\'s newer helpers', async (ctx) => {
    assert.equal(await ctx.output([
      'import buffer, { Blob as BufferBlob, isUtf8, constants } from "buffer";',
      'console.log(Buffer === buffer.Buffer, Buffer.from("x") instanceof Uint8Array, BufferBlob === Blob, isUtf8(Buffer.from([0xff])), isUtf8(Buffer.from("é")), typeof constants.MAX_LENGTH, buffer.atob("aGk="));',
      'console.log(require("util").inspect(Buffer.from("hi")));',
    ].join('\n')), 'true true true false true number hi\n<Buffer 68 69>\n');
  });

  g.test('path, querystring, string_decoder, os, process', async (ctx) => {
    const guest = await guestJson<unknown[]>(ctx, [
      'const path = require("path"); const qs = require("querystring"); const { StringDecoder } = require("string_decoder"); const os = require("os");',
      'const sd = new StringDecoder("utf8");',
      'return [path.join("/a/b", "../c", "./d.txt"), path.resolve("x", "/y", "z"), path.relative("/a/b/c", "/a/d"), path.parse("/home/u/f.tar.gz"), path.format({ dir: "/x", name: "n", ext: ".e" }),',
      '  path.normalize("a//b/../c/."), path.isAbsolute("/q"), path.extname("f.md"), path.basename("/a/b.js", ".js"), path.dirname("/a/b/c"), path.sep, path.delimiter, path.posix === path, require("node:path/posix") === path,',
      '  qs.stringify({ a: [1, 2], b: "x y", c: "é&=", d: null, e: true }), qs.parse("a=1&a=2&b=%20&c&d=e%3Df&+x=y+z"), qs.escape("a b*~\'()!"), qs.unescape("%E2%82%AC%zz"),',
      '  sd.write(Buffer.from([0xe2])) + "|" + sd.write(Buffer.from([0x82, 0xac])) + "|" + sd.end(),',
      '  [os.platform(), os.type(), os.arch(), os.EOL, os.hostname(), os.homedir(), os.tmpdir(), os.cpus().length, os.availableParallelism(), os.endianness()],',
      '  [process.platform, process.cwd(), process.env, process.argv.length, typeof process.version, typeof process.hrtime()[0], typeof process.hrtime.bigint(), typeof process.uptime(), process === require("process")]];',
    ].join('\n'));
    assert.deepEqual(guest, [
      '/a/c/d.txt', '/y/z', '../../d', { root: '/', dir: '/home/u', base: 'f.tar.gz', ext: '.gz', name: 'f.tar' }, '/x/n.e',
      'a/c', true, '.md', 'b', '/a/b', '/', ':', true, true,
      querystring.stringify({ a: [1, 2], b: 'x y', c: 'é&=', d: null, e: true }), { ...querystring.parse('a=1&a=2&b=%20&c&d=e%3Df&+x=y+z') }, querystring.escape("a b*~'()!"), querystring.unescape('%E2%82%AC%zz'),
      '|€|',
      ['linux', 'Linux', 'x64', '\n', 'runjs', '/home/runjs', '/tmp', 1, 1, 'LE'],
      ['linux', '/', {}, 2, 'string', 'number', 'bigint', 'number', true],
    ]);
  });

  g.test('process: nextTick, stdout.write, exit throws', async (ctx) => {
    assert.equal(await ctx.output([
      'process.nextTick((a) => console.log("tick", a), 1); console.log("sync");',
      'await null; process.stdout.write("no newline|"); process.stderr.write("raw\\n");',
      'try { process.exit(0) } catch (e) { console.log(e.code, e.message.startsWith("process.exit(0) is not supported")) }',
    ].join('\n')), 'sync\ntick 1\nno newline|raw\nERR_UNSUPPORTED_OPERATION true\n');
  });

  g.test('events: EventEmitter, once, on, errorMonitor, error without listener', async (ctx) => {
    assert.equal(await ctx.output([
      'import EventEmitter, { once, on, errorMonitor } from "node:events";',
      'const e = new EventEmitter(); e.on("x", (a, b) => console.log("x", a, b)); e.prependListener("x", () => console.log("first")); e.emit("x", 1, 2);',
      'e.once("y", () => console.log("y once")); e.emit("y"); e.emit("y"); console.log(e.listenerCount("x"), e.eventNames().join());',
      'setTimeout(() => e.emit("later", "v"), 1); console.log(await once(e, "later"));',
      'e.on(errorMonitor, (err) => console.log("monitored", err.message)); try { e.emit("error", new Error("unhandled")) } catch (err) { console.log("thrown", err.message) }',
      'const it = on(e, "tick"); setTimeout(() => { e.emit("tick", 1); e.emit("tick", 2) }, 1); const got = []; for await (const [v] of it) { got.push(v); if (got.length === 2) break; } console.log(got.join());',
      'class My extends EventEmitter {} console.log(new My() instanceof EventEmitter, EventEmitter.defaultMaxListeners);',
    ].join('\n')), 'first\nx 1 2\ny once\n2 x\n[ \'v\' ]\nmonitored unhandled\nthrown unhandled\n1,2\ntrue 10\n'.replace("[ 'v' ]", '["v"]'));
  });

  g.test('timers, timers/promises, url, console', async (ctx) => {
    assert.equal(await ctx.output([
      'import timers from "node:timers"; import { setTimeout as sleep, setImmediate as immediate } from "node:timers/promises"; import url from "node:url";',
      'console.log(typeof timers.setTimeout, typeof timers.setInterval, await sleep(2, "slept"), await immediate("imm"));',
      'const ac = new AbortController(); const p = sleep(1000, null, { signal: ac.signal }); ac.abort(); try { await p } catch (e) { console.log(e.name, e.code) }',
      'const u = url.parse("https://user:pw@host.com:8080/p/a/t/h?query=string#hash", true); console.log(u.protocol, u.auth, u.host, u.pathname, u.query.query, u.hash);',
      'console.log(url.format({ protocol: "http", host: "a.b", pathname: "/x", query: { q: 1 } }), url.resolve("http://a/b/c", "../d"), url.fileURLToPath("file:///a/b%20c"), url.pathToFileURL("/p q").href, url.format(new URL("http://u:p@ä.com/x#f"), { auth: false, fragment: false, unicode: true }));',
      'console.log(url.URL === URL, url.domainToASCII("español.com"));',
      'import cons from "node:console"; console.log(cons === console, typeof cons.Console);',
      'console.table([{ a: 1, b: "x" }, { a: 2 }]); console.table(new Map([["k", 1]]));',
      'console.count(); console.count(); console.count("k"); console.assert(1 === 2, "math"); console.dir({ d: 1 });',
    ].join('\n')), [
      'function function slept imm',
      'AbortError ABORT_ERR',
      'https: user:pw host.com:8080 /p/a/t/h string #hash',
      'http://a.b/x?q=1 http://a/d /a/b c file:///p%20q http://ä.com/x',
      'true xn--espaol-zwa.com',
      'true function',
      '┌─────────┬───┬─────┐',
      '│ (index) │ a │ b   │',
      '├─────────┼───┼─────┤',
      '│ 0       │ 1 │ \'x\' │',
      '│ 1       │ 2 │     │',
      '└─────────┴───┴─────┘',
      '┌───────────────────┬─────┬────────┐',
      '│ (iteration index) │ Key │ Values │',
      '├───────────────────┼─────┼────────┤',
      "│ 0                 │ 'k' │ 1      │",
      '└───────────────────┴─────┴────────┘',
      'default: 1', 'default: 2', 'k: 1', '[ERROR] Assertion failed: math', '{"d":1}',
      // Node warns once on url.parse() (DEP0169), after the script's synchronous part.
      '[WARN] (runjs) [DEP0169] DeprecationWarning: `url.parse()` behavior is not standardized and prone to errors that have security implications. Use the WHATWG URL API instead. CVEs are not issued for `url.parse()` vulnerabilities.',
      '',
    ].join('\n'));
  });

  g.test('import.meta is that of a file /main.js: url, filename, dirname, resolve', async (ctx) => {
    assert.equal(await ctx.output([
      'import { fileURLToPath } from "node:url";',
      'console.log(import.meta.url, import.meta.filename, import.meta.dirname, fileURLToPath(import.meta.url));',
      'console.log(import.meta.resolve("path"), import.meta.resolve("node:util"), import.meta.resolve("./data.json"), import.meta.resolve("https://x.y/a"));',
      'try { import.meta.resolve("lodash") } catch (e) { console.log(e.name, e.code, e.message) }',
    ].join('\n')), [
      'file:///main.js /main.js / /main.js',
      'node:path node:util file:///data.json https://x.y/a',
      "TypeError ERR_MODULE_NOT_FOUND Cannot find package 'lodash' imported from /main.js",
      '',
    ].join('\n'));
  });

  g.test('util.inspect of an error starts with "Name: message" on both engines, cause included', async (ctx) => {
    const out = await ctx.output('console.log(require("util").inspect(new TypeError("bad", { cause: new RangeError("inner") })).split("\\n").filter((l) => !/^\\s+(at |\\.\\.\\.)/.test(l)).join("|"))');
    assert.match(out, /^TypeError: bad\|.*\[cause\]: RangeError: inner\|/);
  });

  g.test('process.env stores strings, as in Node', async (ctx) => {
    assert.equal(await ctx.output('process.env.N = 1; process.env.U = undefined; Object.assign(process.env, { B: true }); console.log(typeof process.env.N, JSON.stringify(process.env), delete process.env.N, "N" in process.env);'),
      'string {"N":"1","U":"undefined","B":"true"} true false\n');
  });

  g.test('non-enumerable module exports are importable by name (console.Console)', async (ctx) => {
    assert.equal(await ctx.output([
      'import { Console } from "node:console"; import * as all from "console";',
      'console.log(typeof Console, Console === all.Console, Console === require("console").Console);',
    ].join('\n')), 'function true true\n');
  });

  g.test('hashes and HMACs stream their input to the host: 32 MiB through a 16 MB heap; state matches Node', async (ctx) => {
    const out = await ctx.output([
      'const crypto = require("crypto");',
      'const h = crypto.createHash("sha256"); const m = crypto.createHmac("sha256", "k"); const chunk = new Uint8Array(1 << 20).fill(7);',
      'for (let i = 0; i < 32; i++) { h.update(chunk); m.update(chunk) }',
      'console.log(h.digest("hex"), m.digest("hex"));',
      'const small = crypto.createHash("sha1"); for (let i = 0; i < 5000; i++) small.update("ab"); const copy = small.copy(); small.update("x");',
      'console.log(small.digest("hex"), copy.digest("base64"), crypto.createHash("shake256", { outputLength: 4 }).update("a").copy({ outputLength: 8 }).digest("hex"));',
    ].join('\n'), { heapMemoryMaxMb: 16, timeoutMs: 60000 });
    const chunk = new Uint8Array(1 << 20).fill(7);
    const h = createHash('sha256'); const m = createHmac('sha256', 'k');
    for (let i = 0; i < 32; i++) { h.update(chunk); m.update(chunk); }
    const small = createHash('sha1'); for (let i = 0; i < 5000; i++) small.update('ab');
    const copy = small.copy(); small.update('x');
    assert.equal(out, `${h.digest('hex')} ${m.digest('hex')}\n${small.digest('hex')} ${copy.digest('base64')} ${createHash('shake256', { outputLength: 4 }).update('a').copy({ outputLength: 8 }).digest('hex')}\n`);
  });

  g.test('a hash object kept in a heap image fails cleanly in the next run', async (ctx) => {
    if (ctx.engine !== 'quickjs') {
      assert.equal(await ctx.output('console.log(require("crypto").createHash("md5").update("a").digest("hex"))'), '0cc175b9c0f1b6a831c399e269772661\n');
      return;
    }
    const first = await ctx.run('globalThis.h = require("crypto").createHash("md5").update("a"); 1', { captureImage: true });
    assert.equal(first.outcome.status, 'completed');
    const out = await ctx.output('try { h.update("b"); h.digest("hex") } catch (e) { console.log(e.code, e.message) }', { image: first.image! });
    assert.equal(out, 'ERR_RUNJS_HASH_LOST runjs: this hash was created in an earlier run (its state stays on the host and is not part of a heap image); create a new one\n');
  });

  g.test('zlib and crypto', async (ctx) => {
    const out = await ctx.output([
      'import zlib from "node:zlib"; import crypto from "node:crypto"; import { promisify } from "node:util";',
      'const big = "data ".repeat(200);',
      'for (const [c, d] of [["gzipSync", "gunzipSync"], ["deflateSync", "inflateSync"], ["deflateRawSync", "inflateRawSync"], ["brotliCompressSync", "brotliDecompressSync"]]) console.log(c, zlib[d](zlib[c](big)).toString() === big, zlib[c](big).length < 100);',
      'console.log(zlib.unzipSync(zlib.gzipSync("u")).toString(), (await promisify(zlib.gzip)("p")).length > 0, zlib.crc32("hello"), typeof zlib.constants.Z_BEST_COMPRESSION);',
      'try { zlib.gunzipSync(Buffer.from("not gzip")) } catch (e) { console.log("zlib error", e.code) }',
      'const packed = []; const gz = zlib.createGzip(); gz.on("data", (c) => packed.push(c)); gz.on("end", () => console.log("stream", zlib.gunzipSync(Buffer.concat(packed)).toString())); gz.write("stre"); gz.end("amed");',
      'await new Promise((r) => setTimeout(r, 10));',
      'console.log(crypto.createHash("sha256").update("a").update(Buffer.from("b")).digest("hex"));',
      'console.log(crypto.createHash("md5").update("x").digest("base64"), crypto.hash("sha1", "abc"), crypto.createHmac("sha512", "key").update("msg").digest("hex").slice(0, 32));',
      'const h = crypto.createHash("sha1").update("partial"); const copy = h.copy(); console.log(h.digest("hex") === copy.digest("hex"));',
      'try { crypto.createHash("nope") } catch (e) { console.log("bad hash", e.message.length > 0) }',
      'console.log(crypto.randomBytes(16).length, crypto.randomInt(5, 6), crypto.randomUUID().length, crypto.timingSafeEqual(Buffer.from("ab"), Buffer.from("ab")), crypto.getHashes().includes("sha256"));',
      'console.log(crypto.pbkdf2Sync("pw", "salt", 1000, 16, "sha256").toString("hex"), crypto.scryptSync("pw", "salt", 16, { N: 1024 }).toString("hex"), Buffer.from(crypto.hkdfSync("sha256", "k", "s", "i", 8)).toString("hex"));',
      'console.log(crypto.webcrypto === globalThis.crypto, (await crypto.subtle.digest("SHA-256", new Uint8Array())).byteLength);',
    ].join('\n'));
    const pbkdf2 = (await import('node:crypto')).pbkdf2Sync('pw', 'salt', 1000, 16, 'sha256').toString('hex');
    const scrypt = (await import('node:crypto')).scryptSync('pw', 'salt', 16, { N: 1024 }).toString('hex');
    const hkdf = Buffer.from((await import('node:crypto')).hkdfSync('sha256', 'k', 's', 'i', 8)).toString('hex');
    assert.equal(out, [
      'gzipSync true true', 'deflateSync true true', 'deflateRawSync true true', 'brotliCompressSync true true',
      `u true ${(await import('node:zlib')).crc32('hello')} number`,
      'zlib error Z_DATA_ERROR',
      'stream streamed',
      createHash('sha256').update('ab').digest('hex'),
      `${createHash('md5').update('x').digest('base64')} ${createHash('sha1').update('abc').digest('hex')} ${createHmac('sha512', 'key').update('msg').digest('hex').slice(0, 32)}`,
      'true',
      'bad hash true',
      '16 5 36 true true',
      `${pbkdf2} ${scrypt} ${hkdf}`,
      'true 32',
      '',
    ].join('\n'));
  });

  g.test('stream: Readable, Writable, Transform, pipeline, finished, promises', async (ctx) => {
    assert.equal(await ctx.output([
      'import { Readable, Writable, Transform, PassThrough, pipeline, finished } from "node:stream"; import { pipeline as pipelineP } from "node:stream/promises"; import stream from "stream";',
      'const sink = []; const upper = new Transform({ transform(chunk, enc, cb) { cb(null, String(chunk).toUpperCase()) } });',
      'await pipelineP(Readable.from(["a", "b", "c"]), upper, new Writable({ write(c, e, cb) { sink.push(String(c)); cb() } })); console.log(sink.join(""));',
      'const chunks = []; for await (const c of Readable.from([1, 2, 3])) chunks.push(c); console.log(chunks.join());',
      'const r = new Readable({ read() {} }); r.push("x"); r.push(null); r.setEncoding("utf8"); let t = ""; r.on("data", (d) => t += d); await new Promise((res) => finished(r, res)); console.log(t);',
      'const failing = new Readable({ read() { this.destroy(new Error("broken")) } });',
      'await new Promise((res) => pipeline(failing, new PassThrough(), (err) => { console.log("pipeline error", err.message); res() }));',
      'console.log(typeof stream.Readable, stream.Stream === stream, typeof require("stream").promises.finished);',
    ].join('\n')), 'ABC\n1,2,3\nx\npipeline error broken\nfunction true function\n');
  });

  g.test('module resolution: node: prefix optional, require() for builtins, unknown modules name what is available', async (ctx) => {
    assert.equal(await ctx.output([
      'import p1 from "node:path"; import p2 from "path"; import * as ns from "node:events";',
      'console.log(p1 === p2, typeof ns.default, typeof ns.EventEmitter, require("node:util") === require("util"));',
      'try { require("dgram") } catch (e) { console.log(e.code, e.message.slice(0, 63)) }',
      'try { require("./local") } catch (e) { console.log(e.code) }',
    ].join('\n')), "true function function true\nMODULE_NOT_FOUND Module 'dgram' is not available in runjs. Available built-in mo\nMODULE_NOT_FOUND\n");
    const res = await ctx.run('import dgram from "node:dgram"; console.log(dgram)');
    assert.equal(res.outcome.status, 'failed');
    assert.equal(res.outcome.status === 'failed' ? res.outcome.error : '', "Module 'node:dgram' is not available in runjs. Available built-in modules: node:assert, node:assert/strict, node:async_hooks, node:buffer, node:child_process, node:console, node:crypto, node:dns, node:dns/promises, node:domain, node:events, node:fs, node:fs/promises, node:http, node:http2, node:module, node:net, node:os, node:path, node:path/posix, node:path/win32, node:perf_hooks, node:process, node:querystring, node:readline, node:readline/promises, node:stream, node:stream/consumers, node:stream/promises, node:stream/web, node:string_decoder, node:test, node:timers, node:timers/promises, node:tls, node:tty, node:url, node:util, node:util/types, node:vm, node:worker_threads, node:zlib");
  });
});
