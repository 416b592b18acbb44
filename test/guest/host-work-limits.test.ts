// Host-side work a script starts is bounded by the run (worker/ops/crypto/kdf-limits.ts,
// worker/ops/zlib/zlib-ops.ts): key derivations are capped per call and scrypt's memory is held
// to the run's heap cap, with Node-like RangeErrors naming the limit; zlib output stops at the
// heap cap; a run whose script makes the host hold memory outside the engine is stopped by the
// memory watchdog on both engines.
import assert from 'node:assert/strict';
import { pbkdf2Sync, scryptSync } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { guestSuite } from '../helpers/both-engines.ts';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';

const MiB = 1024 * 1024;
/** 64 MiB of zeros, deflated: 65 KB. */
const BOMB = deflateSync(Buffer.alloc(64 * MiB), { level: 9 }).toString('base64');

const printError = 'console.log(e.name, e.code, e.message)';

guestSuite('host work limits', (g) => {
  g.test('zlib output stops at the run heap cap, which the script cannot raise', async (ctx) => {
    const code = [
      'import zlib from "node:zlib";',
      `const bomb = Buffer.from("${BOMB}", "base64");`,
      `try { console.log(zlib.inflateSync(bomb).length) } catch (e) { ${printError} }`,
      `try { console.log(zlib.inflateSync(bomb, { maxOutputLength: 2 ** 40 }).length) } catch (e) { ${printError} }`,
      `try { zlib.inflate(bomb, (e, out) => { if (e) ${printError}; else console.log(out.length) }) } catch (e) { ${printError} }`,
      'await new Promise((r) => setTimeout(r, 1));',
      'const stream = new Blob([bomb]).stream().pipeThrough(new DecompressionStream("deflate"));',
      'try { let n = 0; for await (const c of stream) n += c.length; console.log(n) } catch (e) { console.log(e.name, e.message) }',
    ].join('\n');
    assert.equal(await ctx.output(code, { heapMemoryMaxMb: 16, timeoutMs: 120_000 }), [
      'RangeError ERR_BUFFER_TOO_LARGE Cannot create a Buffer larger than 16777216 bytes',
      'RangeError ERR_BUFFER_TOO_LARGE Cannot create a Buffer larger than 16777216 bytes',
      'RangeError ERR_BUFFER_TOO_LARGE Cannot create a Buffer larger than 16777216 bytes',
      'TypeError DecompressionStream: Cannot create a Buffer larger than 16777216 bytes',
      '',
    ].join('\n'));
    const fits = [
      'import zlib from "node:zlib";',
      `const bomb = Buffer.from("${BOMB}", "base64");`,
      'const out = zlib.inflateSync(bomb); console.log(out.length, out.indexOf(1));',
    ].join('\n');
    assert.equal(await ctx.output(fits, { heapMemoryMaxMb: 256, timeoutMs: 120_000 }), `${64 * MiB} -1\n`);
  });

  g.test('PBKDF2: iterations × output blocks are capped per call, sync, async and WebCrypto; RSA moduli at 8192 bits', async (ctx) => {
    const out = await ctx.output([
      'import crypto from "node:crypto";',
      `try { crypto.pbkdf2Sync("a", "b", 10_000_001, 32, "sha256") } catch (e) { ${printError} }`,
      `try { crypto.pbkdf2Sync("a", "b", 5_000_001, 64, "sha256") } catch (e) { ${printError} }`,
      `crypto.pbkdf2("a", "b", 2 ** 31 - 1, 16, "sha1", (e) => { ${printError} });`,
      'await new Promise((r) => setTimeout(r, 1));',
      'const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("pw"), "PBKDF2", false, ["deriveBits"]);',
      'try { await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-512", salt: new Uint8Array(8), iterations: 10_000_000 }, key, 1024) } catch (e) { console.log(e instanceof DOMException, e.name, e.message) }',
      'console.log(crypto.pbkdf2Sync("a", "b", 1000, 64, "sha256").toString("hex"));',
      'try { await crypto.subtle.generateKey({ name: "RSA-PSS", modulusLength: 16384, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, false, ["sign"]) } catch (e) { console.log(e.name, e.message) }',
    ].join('\n'));
    assert.equal(out, [
      'RangeError ERR_OUT_OF_RANGE The value of "iterations" is out of range. It must be >= 1 && <= 10000000: runjs allows 10000000 PBKDF2 iterations × output blocks per call. Received 10000001',
      'RangeError ERR_OUT_OF_RANGE The value of "iterations" is out of range. It must be >= 1 && <= 5000000 (a 64-byte key is 2 blocks of sha256): runjs allows 10000000 PBKDF2 iterations × output blocks per call. Received 5000001',
      'RangeError ERR_OUT_OF_RANGE The value of "iterations" is out of range. It must be >= 1 && <= 10000000: runjs allows 10000000 PBKDF2 iterations × output blocks per call. Received 2147483647',
      'true OperationError The value of "iterations" is out of range. It must be >= 1 && <= 5000000 (a 128-byte key is 2 blocks of sha512): runjs allows 10000000 PBKDF2 iterations × output blocks per call. Received 10000000',
      pbkdf2Sync('a', 'b', 1000, 64, 'sha256').toString('hex'),
      "OperationError RSA modulusLength 16384 is over runjs's limit of 8192 bits",
      '',
    ].join('\n'));
  });

  g.test('scrypt: memory within maxmem and the run heap cap, work within the per-call cap', async (ctx) => {
    const code = [
      'import crypto from "node:crypto";',
      `try { console.log(crypto.scryptSync("pw", "salt", 16).toString("hex")) } catch (e) { ${printError} }`,
      `try { crypto.scryptSync("pw", "salt", 16, { N: 1024, maxmem: 2 ** 52 }); console.log("fits") } catch (e) { ${printError} }`,
      `try { crypto.scryptSync("pw", "salt", 16, { N: 2 ** 15, maxmem: 2 ** 52 }) } catch (e) { ${printError} }`,
      `try { crypto.scryptSync("pw", "salt", 16, { N: 2 ** 20, r: 8, p: 1 }) } catch (e) { ${printError} }`,
      `crypto.scrypt("pw", "salt", 16, { cost: 2, blockSize: 1, parallelization: 2 ** 30 - 1 }, (e) => { ${printError} });`,
      'await new Promise((r) => setTimeout(r, 1));',
    ].join('\n');
    const memory = (allowed: number, budget: number, received: number): string => `RangeError ERR_OUT_OF_RANGE The value of "128 * r * (N + p + 2)" is out of range. It must be <= ${allowed}: scrypt's memory is limited to the smaller of maxmem and the run's key-derivation budget (${budget} bytes: its heap cap, at least 32 MiB; raise heap_memory_max_mb). Received ${received}`;
    const work = 'RangeError ERR_OUT_OF_RANGE The value of "N * r * p" is out of range. It must be <= 4194304 (runjs\'s limit on scrypt work per call). ';
    assert.equal(await ctx.output(code), [
      scryptSync('pw', 'salt', 16).toString('hex'), // Node's defaults (16 MiB) work at the default 8 MB heap: the budget is at least 32 MiB
      'fits',
      memory(32 * MiB, 32 * MiB, 33557504),
      `${work}Received 8388608 (N=1048576, r=8, p=1)`,
      `${work}Received 2147483646 (N=2, r=1, p=1073741823)`,
      '',
    ].join('\n'));
    // With a heap cap that holds them, Node's defaults give Node's result; maxmem still applies.
    const roomy = [
      'import crypto from "node:crypto";',
      'console.log(crypto.scryptSync("pw", "salt", 16).toString("hex"));',
      `crypto.scrypt("pw", "salt", 16, (e, k) => console.log(e ?? k.toString("hex")));`,
      `try { crypto.scryptSync("pw", "salt", 16, { maxmem: ${MiB} }) } catch (e) { ${printError} }`,
      'await new Promise((r) => setTimeout(r, 500));',
    ].join('\n');
    const expected = scryptSync('pw', 'salt', 16).toString('hex');
    assert.equal(await ctx.output(roomy, { heapMemoryMaxMb: 32 }), [
      expected,
      memory(MiB, 32 * MiB, 16780288),
      expected,
      '',
    ].join('\n'));
  });

  g.test('many derivations at once all complete (a few run, the rest wait); a run that ends with some waiting leaves the worker healthy', async (ctx) => {
    const out = await ctx.output([
      'import crypto from "node:crypto";',
      'const { promisify } = await import("node:util");',
      'const pbkdf2 = promisify(crypto.pbkdf2);',
      'const keys = await Promise.all(Array.from({ length: 12 }, (_, i) => pbkdf2("pw" + i, "salt", 20000, 16, "sha256")));',
      'console.log(keys.map((k) => k.toString("hex")).join(","));',
    ].join('\n'));
    assert.equal(out, `${Array.from({ length: 12 }, (_, i) => pbkdf2Sync(`pw${i}`, 'salt', 20000, 16, 'sha256').toString('hex')).join(',')}\n`);
    const failing = 'import crypto from "node:crypto"; for (let i = 0; i < 20; i++) crypto.pbkdf2("pw", "salt", 500_000, 16, "sha256", () => {}); throw new Error("gone")';
    const { outcome } = await ctx.run(failing);
    assert.equal(outcome.status, 'failed');
    assert.ok('error' in outcome && outcome.error.startsWith('Uncaught Error: gone\n'), JSON.stringify(outcome));
    assert.deepEqual((await ctx.run('1 + 1')).outcome, { status: 'completed', result: '2' });
  });

  g.test('host memory a script holds outside the engine is stopped by the memory watchdog', async (ctx) => {
    // Each call's 256 KiB password is copied to the host and waits there in the run's queue of
    // key derivations (their completions cannot run while the loop holds the thread); the
    // engine's heap holds only the callbacks. Nothing stops the loop but the watchdog.
    const code = [
      'import crypto from "node:crypto";',
      'const password = new Uint8Array(256 * 1024);',
      'for (;;) crypto.pbkdf2(password, "salt", 1, 16, "sha256", () => {});',
    ].join('\n');
    assert.deepEqual((await ctx.run(code, { timeoutMs: 60_000 })).outcome, { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY });
    assert.deepEqual((await ctx.run('1 + 1')).outcome, { status: 'completed', result: '2' });
  });
});
