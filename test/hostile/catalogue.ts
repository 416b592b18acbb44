// The hostile catalogue: scripts a tenant could send to hurt the service, each with what it
// attacks, how it runs, and how the run must end on each engine. Data only; run-catalogue.ts runs
// every entry against a real server per engine and also checks that the supervisor's memory stays
// bounded, that an execution submitted alongside completes, and that the next runs are clean.
// docs/hostile-suite.md is the table of this file with the measured numbers.
//
// Expectations say what an operator of a multi-tenant service should get, from the interface spec
// and docs/, not what happens today. Where today differs, the entry says so:
// - `dependsOn: 'worker-holes'`: fixed on the worker-holes branch; fails until it is merged.
// - `finding`: known bad behaviour nobody is fixing yet. The test is skipped with the finding as
//   its reason (RUNJS_HOSTILE_FINDINGS=1 runs it as a todo); whoever fixes it removes the finding,
//   and the entry gates like any other.
import type { EngineName } from '../../shared/protocol.ts';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';
import { MAX_ERROR_CHARS, resultTooLargeError } from '../../shared/outcome-limits.ts';

export type Status = 'completed' | 'failed' | 'timed_out';

/** A text to match exactly, or a pattern where it holds a number that legitimately varies. */
export type Text = string | RegExp;

export interface ExpectedOutput {
  /** The whole console output (small outputs). */
  readonly exact?: string;
  readonly totalBytes?: number;
  readonly totalLines?: number;
  /** The output's last bytes. */
  readonly endsWith?: string;
}

export interface Expected {
  readonly status: Status;
  /** `error` of a failed or timed-out run. */
  readonly error?: Text;
  /** `result` of a completed run. */
  readonly result?: Text;
  /** Console output; an entry that says nothing must print nothing. */
  readonly output?: ExpectedOutput;
}

export interface RunOptions {
  readonly execution_timeout_secs?: number;
  readonly heap_memory_max_mb?: number;
}

export interface HostileScript {
  /** kebab-case, unique. */
  readonly name: string;
  readonly group: 'memory' | 'cpu' | 'stack' | 'output' | 'timers' | 'host-ops' | 'result' | 'isolation';
  /** What it attacks, in a line. */
  readonly attacks: string;
  /** The script (the harness puts `globalThis.__hostile = "<name>";` on a line before it). */
  readonly code: string;
  readonly options?: RunOptions;
  readonly expect: Readonly<Record<EngineName, Expected>>;
  /** Artifacts uploaded over REST before the script runs (key → size in bytes). */
  readonly artifacts?: Readonly<Record<string, number>>;
  /** The entry passes once that branch is merged. */
  readonly dependsOn?: 'worker-holes';
  /** Known bad behaviour today, per engine (see the header). */
  readonly finding?: Partial<Record<EngineName, string>>;
}

const MiB = 1024 * 1024;
/** The default --max-output-bytes. */
const OUTPUT_CAP = 16 * MiB;
const OUTPUT_NOTICE = `[runjs] output truncated: the limit of ${OUTPUT_CAP} bytes per execution was reached (--max-output-bytes)\n`;

const same = (e: Expected): Readonly<Record<EngineName, Expected>> => ({ v8: e, quickjs: e });
const OOM: Expected = { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY };
const TIMED_OUT: Expected = { status: 'timed_out', error: EXECUTION_ERRORS.TIMED_OUT };
const ONE_SECOND = { execution_timeout_secs: 1 };

/** A key-derivation call refused up front: the script prints the error's name and code, then rethrows it. */
const KDF_REFUSED: Expected = { status: 'failed', error: /^Uncaught RangeError: /, output: { exact: 'RangeError ERR_OUT_OF_RANGE\n' } };
const printAndRethrow = (call: string): string => `try {\n  ${call}\n} catch (e) {\n  console.log(e.name, e.code)\n  throw e\n}`;

/** With heap persistence WebAssembly is absent (interface spec). */
const wasmNotDefined = (line: number, column: number): Expected => ({ status: 'failed', error: `Uncaught ReferenceError: 'WebAssembly' is not defined\n    at file:///main.js:${line}:${column}` });
const recursion = (header: string, first: number, rest: number): string =>
  [header, `    at f (file:///main.js:2:${first})`, ...Array.from({ length: 9 }, () => `    at f (file:///main.js:2:${rest})`)].join('\n');

/** The 16 MiB artifact the artifact-get entries read (uploaded over REST before they run). */
export const BIG_ARTIFACT = 'hostile-big';

export const CATALOGUE: readonly HostileScript[] = [
  // ── memory ──────────────────────────────────────────────────────────────────────────────────
  {
    name: 'object-flood', group: 'memory',
    attacks: 'the engine heap cap, with many small objects',
    code: 'const a = []; while (true) a.push({ x: Math.random(), y: [1, 2, 3] })',
    expect: same(OOM),
  },
  {
    name: 'string-flood', group: 'memory',
    attacks: 'the engine heap cap, with distinct strings',
    code: 'const a = []; let i = 0; while (true) a.push("s".repeat(1000) + i++)',
    expect: same(OOM),
  },
  {
    name: 'array-fill', group: 'memory',
    attacks: 'one `new Array(2 ** 28).fill(0)`: the allocation pattern that runs past isolated-vm\'s memoryLimit to a fatal process OOM',
    code: 'const a = new Array(2 ** 28).fill(0); a.length',
    expect: same(OOM),
  },
  {
    name: 'arraybuffer-flood', group: 'memory',
    attacks: 'the array-buffer allocator (outside the JS heap on V8), 1 MiB at a time',
    code: 'const a = []; while (true) a.push(new ArrayBuffer(1 << 20))',
    expect: same(OOM),
  },
  {
    name: 'typed-array-flood', group: 'memory',
    attacks: 'the array-buffer allocator through typed arrays',
    code: 'const a = []; while (true) a.push(new Float64Array(1 << 17))',
    expect: same(OOM),
  },
  {
    name: 'buffer-flood', group: 'memory',
    attacks: 'the array-buffer allocator through node:buffer, filled so every page is touched',
    code: 'const a = []; while (true) a.push(Buffer.alloc(1 << 20, 1))',
    expect: same(OOM),
  },
  {
    name: 'intl-formatter-flood', group: 'memory',
    attacks: 'Intl formatters with varying options (ICU objects; host-side formatters and their cache on QuickJS)',
    code: 'const a = []; let i = 0;\nwhile (true) {\n  const f = new Intl.NumberFormat("en-US", { minimumFractionDigits: i % 20, maximumFractionDigits: 20, style: i % 2 ? "percent" : "decimal" });\n  a.push(f, f.format(i++));\n}',
    options: { execution_timeout_secs: 20 },
    expect: same(OOM),
  },
  {
    name: 'zlib-inflate-bomb', group: 'memory',
    attacks: 'host memory: 300 gzip members of 1 MiB of zeros (~300 KB) inflate to 300 MiB on the host, at a 16 MB heap',
    code: 'const zlib = require("node:zlib");\nconst member = zlib.gzipSync(new Uint8Array(1 << 20));\nconst bomb = Buffer.concat(Array.from({ length: 300 }, () => member));\nzlib.gunzipSync(bomb).length',
    options: { heap_memory_max_mb: 16 },
    // The output is bounded by the run's heap cap (16 MiB), not the fixed 256 MiB per call.
    expect: same({ status: 'failed', error: /^Uncaught RangeError: [^\n]*(16777216|16 MiB)/ }),
    dependsOn: 'worker-holes',
  },
  {
    name: 'scrypt-huge-n', group: 'memory',
    attacks: 'host memory and CPU: scryptSync with N = 2^20 and maxmem raised to 2 GiB (1 GiB of scratch, blocking the worker)',
    code: printAndRethrow('require("node:crypto").scryptSync("p", "s", 64, { N: 2 ** 20, r: 8, p: 1, maxmem: 2 ** 31 })'),
    options: { execution_timeout_secs: 2 },
    expect: same(KDF_REFUSED),
    dependsOn: 'worker-holes',
  },
  {
    name: 'scrypt-async-huge-p', group: 'memory',
    attacks: 'the worker\'s thread pool: async scrypt with p = 2^20 (1 GiB, minutes of work that outlive a timed-out run and make later runs on the worker fail out of memory)',
    code: printAndRethrow('await new Promise((ok, no) => require("node:crypto").scrypt("p", "s", 64, { N: 1024, r: 8, p: 2 ** 20, maxmem: 2 ** 31 }, (e, k) => e ? no(e) : ok(k)))'),
    options: { execution_timeout_secs: 2 },
    expect: same(KDF_REFUSED),
    dependsOn: 'worker-holes',
  },
  {
    name: 'pbkdf2-async-huge-iterations', group: 'cpu',
    attacks: 'the worker\'s thread pool: async pbkdf2 with 2^31 - 1 iterations (~25 min of CPU that outlives a timed-out run)',
    code: printAndRethrow('await new Promise((ok, no) => require("node:crypto").pbkdf2("p", "s", 2 ** 31 - 1, 64, "sha512", (e, k) => e ? no(e) : ok(k)))'),
    options: { execution_timeout_secs: 2 },
    expect: same(KDF_REFUSED),
    dependsOn: 'worker-holes',
  },
  {
    name: 'webcrypto-pbkdf2-flood', group: 'cpu',
    attacks: 'the worker\'s thread pool: four crypto.subtle PBKDF2 derivations of 2^31 - 1 iterations, one per pool thread',
    code: 'const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("p"), "PBKDF2", false, ["deriveBits"]);\nconst derive = () => crypto.subtle.deriveBits({ name: "PBKDF2", salt: new Uint8Array(8), iterations: 2 ** 31 - 1, hash: "SHA-512" }, key, 512);\nawait Promise.all([derive(), derive(), derive(), derive()])',
    options: ONE_SECOND,
    // Refused before any thread-pool work starts: PBKDF2 is capped per call (iterations × output
    // blocks ≤ 10,000,000), WebCrypto included (was: four ~25 min derivations outliving the run
    // and poisoning the worker's pool).
    expect: same({ status: 'failed', error: /^Uncaught OperationError: The value of "iterations" is out of range\. It must be >= 1 && <= 10000000: runjs allows 10000000 PBKDF2 iterations × output blocks per call\. Received 2147483647/ }),
  },
  {
    name: 'kdf-outlives-run', group: 'cpu',
    attacks: 'the worker\'s next run: eight async pbkdf2 at the per-call cap (four compute, ~8 s each on the thread pool, callbacks that print), then the run fails at once',
    code: 'const { pbkdf2 } = require("node:crypto");\nfor (let i = 0; i < 8; i++) pbkdf2("p", "s", 1e7, 64, "sha512", () => console.log("late callback"));\nthrow new Error("ended with derivations running")',
    // The derivations cannot be stopped, so the worker is replaced rather than reused: the clean
    // runs after it (crypto.subtle.digest on the thread pool, 5 s limit) find a free pool and no
    // late callback in their output (was: the worker kept the four derivations, and the next
    // run's digest waited behind them).
    expect: same({ status: 'failed', error: /^Uncaught Error: ended with derivations running\n    at file:\/\/\/main\.js:4:\d+$/ }),
  },
  {
    name: 'wasm-memory-growth', group: 'memory',
    attacks: 'WebAssembly memory (outside the JS heap), grown 10 MiB at a time and touched',
    code: 'const m = new WebAssembly.Memory({ initial: 1, maximum: 65536 });\nwhile (true) { m.grow(160); new Uint8Array(m.buffer).fill(1) }',
    options: { execution_timeout_secs: 10 },
    expect: { v8: OOM, quickjs: wasmNotDefined(2, 15) },
  },
  {
    name: 'heap-image-flood', group: 'memory',
    attacks: 'the supervisor, through the heap of a run that ends holding 100 MB (heap_memory_max_mb 128): the worker encodes it, only the compressed delta crosses to the supervisor',
    code: 'globalThis.__hostileKeep = new Uint8Array(100 << 20).fill(1);\n1',
    options: { heap_memory_max_mb: 128 },
    expect: same({ status: 'completed', result: '1' }),
  },
  {
    name: 'heap-image-flood-random', group: 'memory',
    attacks: 'the supervisor, through the heap of a run that ends holding 64 MB of noise (heap_memory_max_mb 128): a payload zstd cannot shrink crosses to the supervisor whole',
    // The noise comes from getRandomValues (64 KiB a call): a 16M-step loop in the script took
    // QuickJS's interpreter most of a minute, which proved nothing more.
    code: 'const w = new Uint8Array(64 << 20);\nfor (let i = 0; i < w.length; i += 65536) crypto.getRandomValues(w.subarray(i, i + 65536));\nglobalThis.__hostileKeep = w;\n1',
    options: { heap_memory_max_mb: 128, execution_timeout_secs: 60 },
    expect: same({ status: 'completed', result: '1' }),
  },

  // ── cpu ─────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'busy-loop', group: 'cpu',
    attacks: 'the wall-clock limit: a loop with no calls',
    code: 'while (true) {}',
    options: ONE_SECOND,
    expect: same(TIMED_OUT),
  },
  {
    name: 'loop-in-finally', group: 'cpu',
    attacks: 'termination: a loop in a `finally` that runs while the first loop is being stopped',
    code: 'try { while (true) {} } finally { while (true) {} }',
    options: ONE_SECOND,
    expect: same(TIMED_OUT),
  },
  {
    name: 'catastrophic-regex', group: 'cpu',
    attacks: 'termination inside the regex engine: exponential backtracking',
    code: '/(a+)+$/.test("a".repeat(40) + "b")',
    options: ONE_SECOND,
    expect: same(TIMED_OUT),
  },
  {
    name: 'urlpattern-catastrophic-regex', group: 'cpu',
    attacks: 'URLPattern: a pattern whose regular expression backtracks exponentially (matching runs in the guest, under the run\'s limits, not on the host)',
    code: 'new URLPattern({ pathname: "/:a((?:a+)+)b" }).test({ pathname: "/" + "a".repeat(40) })',
    options: ONE_SECOND,
    expect: same(TIMED_OUT),
  },
  {
    name: 'microtask-flood', group: 'cpu',
    attacks: 'termination in the microtask queue: a promise chain that never yields to the event loop',
    code: 'function f() { Promise.resolve().then(f) }\nf()',
    options: ONE_SECOND,
    expect: same(TIMED_OUT),
  },
  {
    name: 'sort-huge', group: 'cpu',
    attacks: 'termination inside a native call: repeated default sort of 200k strings',
    code: 'const a = Array.from({ length: 2e5 }, (_, i) => String((i * 7919) % 200003));\nwhile (true) a.slice().sort()',
    options: { execution_timeout_secs: 1, heap_memory_max_mb: 64 },
    expect: same(TIMED_OUT),
  },
  {
    name: 'split-huge', group: 'cpu',
    attacks: 'termination inside a native call: repeated split of a 2 MB string',
    code: 'const s = "a,".repeat(1e6);\nwhile (true) s.split(",")',
    options: { execution_timeout_secs: 1, heap_memory_max_mb: 64 },
    expect: same(TIMED_OUT),
  },
  {
    name: 'replace-huge', group: 'cpu',
    attacks: 'termination inside a native call: repeated global replace on a 2 MB string',
    code: 'const s = "ab".repeat(1e6);\nwhile (true) s.replace(/a/g, "c")',
    options: { execution_timeout_secs: 1, heap_memory_max_mb: 64 },
    expect: same(TIMED_OUT),
  },
  {
    name: 'wasm-loop', group: 'cpu',
    attacks: 'termination inside WebAssembly: `(loop (br 0))`',
    code: 'const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,4,1,96,0,0,3,2,1,0,7,5,1,1,102,0,0,10,9,1,7,0,3,64,12,0,11,11]);\nnew WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f()',
    options: ONE_SECOND,
    expect: { v8: TIMED_OUT, quickjs: wasmNotDefined(3, 5) },
  },

  // ── stack ───────────────────────────────────────────────────────────────────────────────────
  {
    name: 'deep-recursion', group: 'stack',
    attacks: 'the native stack, through unbounded recursion',
    code: 'function f(n) { return f(n + 1) + 1 }\nf(0)',
    expect: {
      v8: { status: 'failed', error: recursion('Uncaught RangeError: Maximum call stack size exceeded', 17, 24) },
      quickjs: { status: 'failed', error: recursion('Uncaught RangeError: stack overflow', 25, 25) },
    },
  },
  {
    name: 'nested-arrays-100k', group: 'stack',
    attacks: 'the transpiler\'s and parser\'s stacks: 100,000 nested array literals in the source',
    code: `const x = ${'['.repeat(1e5)}${']'.repeat(1e5)};\nx.length`,
    // Refused before esbuild: the line and column are where the nesting passes the limit.
    expect: same({ status: 'failed', error: 'TypeScript parse error: 2:1011: brackets, braces and parentheses nest deeper than 1000 levels (the limit for scripts)' }),
  },
  {
    name: 'nested-brackets-1m', group: 'stack',
    attacks: 'the transpiler: 1,000,000 nested brackets crash the worker\'s esbuild service',
    code: `const x = ${'['.repeat(1e6)}${']'.repeat(1e6)};\nx.length`,
    // A real diagnostic (not "The service was stopped"), and the worker's next runs transpile.
    expect: same({ status: 'failed', error: /^TypeScript parse error: (?!The service)/ }),
    dependsOn: 'worker-holes',
  },

  // ── output ──────────────────────────────────────────────────────────────────────────────────
  {
    name: 'one-huge-line', group: 'output',
    attacks: 'the output cap and the supervisor: a single 24 MiB line, written 1 MiB at a time',
    code: 'const chunk = "x".repeat(1 << 20);\nfor (let i = 0; i < 24; i++) process.stdout.write(chunk);\n1',
    options: { heap_memory_max_mb: 16 },
    expect: same({ status: 'completed', result: '1', output: { totalBytes: OUTPUT_CAP + OUTPUT_NOTICE.length, totalLines: 1, endsWith: OUTPUT_NOTICE } }),
  },
  {
    name: 'newline-flood', group: 'output',
    attacks: 'the output line index and the supervisor: 20 MiB of newlines (16,777,216 lines kept)',
    code: 'const chunk = "\\n".repeat(1 << 20);\nfor (let i = 0; i < 20; i++) process.stdout.write(chunk);\n1',
    options: { heap_memory_max_mb: 16 },
    expect: same({ status: 'completed', result: '1', output: { totalBytes: OUTPUT_CAP + OUTPUT_NOTICE.length, totalLines: OUTPUT_CAP + 1, endsWith: `\n\n${OUTPUT_NOTICE}` } }),
  },

  // ── timers ──────────────────────────────────────────────────────────────────────────────────
  {
    name: 'timer-flood', group: 'timers',
    attacks: 'the host timer table: 100,000 pending timers (each a host timer bound to the run)',
    code: 'for (let i = 0; i < 1e5; i++) setTimeout(() => {}, 1e6);\n1',
    expect: same(OOM),
  },

  // Floods that do real work (copies, hashes, fsync'd writes) get 60 s: on a loaded 2-core machine
  // they have taken over 30 s, and the outcome they test is not a timeout.
  // ── host-op amplification ───────────────────────────────────────────────────────────────────
  {
    name: 'digest-flood', group: 'host-ops',
    attacks: 'host memory: 500 concurrent crypto.subtle.digest calls on one 1 MiB buffer (500 MB of host-side copies if all are held at once)',
    code: 'const buf = new Uint8Array(1 << 20);\nconst digests = [];\nfor (let i = 0; i < 500; i++) digests.push(crypto.subtle.digest("SHA-256", buf));\n(await Promise.all(digests)).length',
    options: { heap_memory_max_mb: 64, execution_timeout_secs: 60 },
    expect: {
      // V8 hands each call to the thread pool as it is made, and the copies drain as fast as they come.
      v8: { status: 'completed', result: '500' },
      // QuickJS makes every call (and its copy) before any digest runs: the copies count against
      // the run through the worker's memory watchdog (4 × the heap cap).
      quickjs: OOM,
    },
  },
  {
    name: 'artifact-write-flood', group: 'host-ops',
    attacks: 'the supervisor and the artifact store: 200 artifact() writes of 1 MiB issued at once, none awaited before the next (64 MiB may be pending)',
    code: 'const b = new Uint8Array(1 << 20);\nconst writes = [];\nfor (let i = 0; i < 200; i++) writes.push(artifact("flood-" + (i % 50), "application/octet-stream", b));\nconst r = await Promise.allSettled(writes);\n[r.filter((x) => x.status === "fulfilled").length >= 64, [...new Set(r.filter((x) => x.status === "rejected").map((x) => String(x.reason)))]]',
    // The 64 MiB of pending payloads are copied on the host, within the watchdog's 4 × 128 MB.
    options: { heap_memory_max_mb: 128, execution_timeout_secs: 60 },
    expect: same({ status: 'completed', result: '[true,["RangeError: artifact: more than 67108864 bytes (64 MiB) of artifact writes are pending; await earlier artifact() calls first"]]' }),
  },
  {
    name: 'artifact-write-unawaited', group: 'host-ops',
    attacks: 'the same flood with the promises dropped: the run ends while writes are pending and rejected',
    code: 'const b = new Uint8Array(1 << 20);\nfor (let i = 0; i < 200; i++) artifact("flood-" + (i % 50), "application/octet-stream", b);\n1',
    options: { heap_memory_max_mb: 128, execution_timeout_secs: 60 },
    expect: {
      // An unhandled rejection is fatal on V8, as in Node; QuickJS does not detect them (docs/script-environment.md).
      // The class survives (was: `Uncaught Error: …`, op errors being Errors renamed, which
      // isolated-vm copies out of the isolate by their constructor).
      v8: { status: 'failed', error: 'Uncaught RangeError: artifact: more than 67108864 bytes (64 MiB) of artifact writes are pending; await earlier artifact() calls first' },
      quickjs: { status: 'completed', result: '1' },
    },
  },
  {
    name: 'artifact-get-flood', group: 'host-ops',
    attacks: 'the supervisor: 16 concurrent artifact.get of a 16 MiB artifact',
    artifacts: { [BIG_ARTIFACT]: 16 * MiB },
    code: `const gets = Array.from({ length: 16 }, () => artifact.get("${BIG_ARTIFACT}").then((b) => b.length));\n(await Promise.all(gets)).join()`,
    options: { heap_memory_max_mb: 64, execution_timeout_secs: 30 },
    // Each read holds its 16 MiB answer against the run's 64 MiB of delegated ops: four are
    // served, the rest refused at once (was: all 16 served, the supervisor's peak +350-400 MB).
    expect: same({ status: 'failed', error: /^Uncaught RangeError: runjs: more than 67108864 bytes of host operations are waiting for the server at once; await earlier ones first/ }),
  },
  {
    name: 'artifact-get-small-heap', group: 'host-ops',
    attacks: 'the engine heap cap against a host answer larger than the heap: artifact.get of 16 MiB at 8 MB',
    artifacts: { [BIG_ARTIFACT]: 16 * MiB },
    code: `(await artifact.get("${BIG_ARTIFACT}")).length`,
    // An allocation failure the script does not catch is the out-of-memory text (docs/script-environment.md);
    // on V8 copying the answer into the isolate is that failure (was: `Uncaught RangeError: Array buffer allocation failed`).
    expect: same(OOM),
  },

  // ── result and error floods ─────────────────────────────────────────────────────────────────
  {
    name: 'result-flood', group: 'result',
    attacks: 'the result path to the supervisor: a 100 MB string as the result',
    code: '"x".repeat(100 << 20)',
    // The work is bounded (one 100 MB string, serialised once); the long timeout is for a loaded
    // machine, where the full suite's run of this took over 60 s (16 s on an idle one).
    options: { heap_memory_max_mb: 512, execution_timeout_secs: 300 },
    expect: same({ status: 'failed', error: resultTooLargeError(100 * MiB + 2) }),
  },
  {
    name: 'error-flood', group: 'result',
    attacks: 'the error path to the supervisor: an uncaught Error with a 50 MB message',
    code: 'throw new Error("e".repeat(50 << 20))',
    options: { heap_memory_max_mb: 256, execution_timeout_secs: 300 },
    // Cut at MAX_ERROR_CHARS; the count of dropped characters includes the stack frames.
    expect: same({ status: 'failed', error: new RegExp(`^Uncaught Error: e{${MAX_ERROR_CHARS - 'Uncaught Error: '.length}}… \\[runjs\\] error text truncated: \\d+ more characters$`) }),
  },

  // ── isolation ───────────────────────────────────────────────────────────────────────────────
  {
    name: 'prototype-pollution', group: 'isolation',
    attacks: 'later runs: overwrites the builtins the prelude and other runs depend on',
    code: 'Object.prototype.polluted = 1; Object.prototype.get = 1; Array.prototype.push = () => 0; Array.prototype.map = () => [];\nJSON.stringify = () => "pwned"; JSON.parse = () => 0; console.log = () => {}; globalThis.setTimeout = () => 0;\nPromise.prototype.then = function () { return this }; Math.random = () => 4;\n1',
    expect: same({ status: 'completed', result: '1' }),
  },
  {
    name: 'prototype-pollution-own-realm', group: 'isolation',
    attacks: 'the script\'s own platform: an enumerable property on Object.prototype, then a lazily loaded builtin module',
    code: 'Object.prototype.polluted = 1;\ntypeof require("node:zlib").gzipSync',
    // docs/security.md: the prelude captures what it depends on, so the script cannot break the
    // platform for itself (was: `Getter must be a function: 1` / `invalid getter`: a for-in over
    // the part's exports visited the planted key).
    expect: same({ status: 'completed', result: '"function"' }),
  },
  {
    name: 'prototype-pollution-descriptor-fields', group: 'isolation',
    attacks: 'the script\'s own platform: descriptor fields (`get`, `set`, `value`, `writable`) planted on Object.prototype, then six lazily loaded builtin modules used',
    code: [
      'Object.prototype.get = 1; Object.prototype.set = 1; Object.prototype.value = 1; Object.prototype.writable = true;',
      'const [zlib, nodeCrypto, stream, util, events, buffer] = ["zlib", "crypto", "stream", "util", "events", "buffer"].map((m) => require("node:" + m));',
      'const e = new events.EventEmitter(); let got; e.on("x", (v) => { got = v }); e.emit("x", 3);',
      '[zlib.gunzipSync(zlib.gzipSync("abc")).toString(), nodeCrypto.createHash("sha256").update("x").digest("hex").slice(0, 8),',
      '  (await stream.Readable.from(["a", "b"]).toArray()).join(""), util.format("%s=%d", "n", 1), got, buffer.Buffer.from("hi").toString("hex")].join()',
    ].join('\n'),
    expect: same({ status: 'completed', result: '"abc,2d711642,ab,n=1,3,6869"' }),
  },
  {
    name: 'prototype-pollution-fetch-classes', group: 'isolation',
    attacks: 'the script\'s own platform: descriptor fields planted on Object.prototype, then the lazily loaded Fetch classes (Request, Headers, Response)',
    code: [
      'Object.prototype.get = 1; Object.prototype.set = 1; Object.prototype.value = 1; Object.prototype.writable = true; Object.prototype.polluted = 1;',
      'const req = new Request("https://example.com/a", { method: "POST", body: "hi", headers: { "x-a": "1" } });',
      'const res = new Response("ok", { status: 201, headers: new Headers({ "x-b": "2" }) });',
      '[req.method, req.headers.get("x-a"), await req.text(), res.status, res.headers.get("x-b"), await res.text(), (await Response.json({ a: 1 }).json()).a].join()',
    ].join('\n'),
    expect: same({ status: 'completed', result: '"POST,1,hi,201,2,ok,1"' }),
  },
];
