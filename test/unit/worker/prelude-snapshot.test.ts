// The V8 startup snapshot of the prelude (worker/engines/v8/prelude-snapshot.ts): the prelude is
// compiled as a script that keeps its lines and columns, stored one byte per character; the
// warm-up compiles a trivial run's functions into the snapshot without running them in the
// snapshot's own context; realms restored from it run scripts as realms booted from source do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ivm from 'isolated-vm';
import { buildPreludeSnapshot, oneByte, preludeScript, preludeSnapshotScripts } from '../../../worker/engines/v8/prelude-snapshot.ts';
import { PRELUDE_SOURCE } from '../../../worker/guest/prelude-source.ts';
import { V8Engine } from '../../../worker/engines/v8/v8-engine.ts';
import { readPartSource } from '../../../worker/ops/platform/platform-ops.ts';
import { RunLoop } from '../../../worker/runtime/execute-run.ts';
import { createOps } from '../../../worker/ops/capabilities.ts';
import type { GuestRealm, HostCall } from '../../../worker/engine.ts';
import type { Outcome } from '../../../shared/protocol.ts';
import { TEST_WORKER_SETTINGS } from '../../helpers/worker-settings.ts';

test('preludeScript: the statements become a function that returns the last one (the last line opening with `(function`), on the same lines', () => {
  const source = "// a \u2014 b\n'use strict';\n(function () { return 1; })();\n(function () { return { x: 1 }; })();\n";
  assert.equal(preludeScript(source),
    "globalThis.__runjs_boot_internal = (function () {// a \u2014 b\n'use strict';\n(function () { return 1; })();\nreturn (function () { return { x: 1 }; })();\n\n})();");
  assert.equal(preludeScript("'use strict';\nconst internal = {};\n"), undefined);
});

test('the prelude as a snapshot script: every line where it was but the first and the last statement\'s', () => {
  const script = preludeScript(PRELUDE_SOURCE);
  assert.ok(script !== undefined);
  const lines = script.split('\n');
  const original = PRELUDE_SOURCE.split('\n');
  assert.equal(lines.length, original.length + 1);
  const changed = original.flatMap((line, i) => (line === lines[i] ? [] : [i]));
  assert.equal(changed.length, 2);
  assert.equal(changed[0], 0);
  assert.equal(lines[changed[1]!], `return ${original[changed[1]!]}`);
});

test('oneByte: a Latin-1 text held two bytes per character is stored one byte per character in a snapshot; other text is left as it is', () => {
  // A slice of a two-byte string stays two-byte in V8, though every character left is Latin-1.
  const twoByte = `\u2014// ${'x\u00e9'.repeat(20_000)}\nglobalThis.f = function () { return 1; };`.slice(1);
  const size = (code: string): number => ivm.Isolate.createSnapshot([{ code, filename: 'test' }]).copy().byteLength;
  assert.equal(oneByte(twoByte), twoByte);
  assert.ok(size(twoByte) - size(oneByte(twoByte)) > 30_000, `${size(twoByte)} against ${size(oneByte(twoByte))} bytes`);
  assert.equal(oneByte('a\u2014b'), 'a\u2014b');
});

test('the prelude is Latin-1 throughout, so its snapshot source is one byte per character (a typographic dash in a comment would double it)', () => {
  const beyond = PRELUDE_SOURCE.split('\n').flatMap((line, i) => (/[^\u0000-\u00ff]/.test(line) ? [`${i + 1}: ${line.trim().slice(0, 80)}`] : []));
  assert.deepEqual(beyond, []);
  const script = preludeScript(PRELUDE_SOURCE)!;
  const size = (code: string): number => ivm.Isolate.createSnapshot([{ code, filename: 'test' }]).copy().byteLength;
  // The same text forced two-byte (a slice after a non-Latin-1 first character) makes a larger snapshot.
  assert.ok(size(script) < size(`\u2014${script}`.slice(1)));
});

test('the warm-up compiles functions into the snapshot: it is larger than the same scripts unwarmed', () => {
  const scripts = preludeSnapshotScripts();
  assert.ok(scripts !== undefined);
  const cold = ivm.Isolate.createSnapshot(scripts).copy().byteLength;
  const warm = buildPreludeSnapshot()?.copy().byteLength ?? 0;
  assert.ok(warm > cold + 1024, `warm ${warm} bytes, cold ${cold} bytes`);
});

const OPS = createOps(TEST_WORKER_SETTINGS);
const engine = new V8Engine({ partSource: readPartSource });
let current: HostCall | undefined;
const trampoline: HostCall = (op, args, bytes) => current!(op, args, bytes);

async function run(code: string): Promise<{ outcome: Outcome; fromSnapshot: boolean }> {
  const loop = new RunLoop({ runId: 'r', code, timeoutMs: 10_000 }, OPS, new Map(), { output: () => {} });
  // A limit other than the spare's: every realm is booted for its run, from the snapshot once it exists.
  const realm = await engine.createRealm({ memoryLimitMb: 9, hostCall: trampoline }) as GuestRealm & { readonly fromSnapshot: boolean };
  current = loop.hostCall;
  try {
    return { outcome: await loop.run(realm), fromSnapshot: realm.fromSnapshot };
  } finally {
    realm.dispose();
  }
}

test('realms restored from the warmed snapshot run scripts: results, errors without prelude frames, a clock that starts with the run', async () => {
  assert.deepEqual(await run('1 + 1'), { outcome: { status: 'completed', result: '2' }, fromSnapshot: false });
  // The engine builds its snapshot once it has been idle a moment after its first boot.
  let restored = false;
  for (let i = 0; i < 100 && !restored; i++) {
    await new Promise((r) => setTimeout(r, 50));
    restored = (await run('0')).fromSnapshot;
  }
  assert.equal(restored, true);
  assert.deepEqual(await run('const o = { a: [1, "x"] }; o'), { outcome: { status: 'completed', result: '{"a":[1,"x"]}' }, fromSnapshot: true });
  assert.deepEqual(await run('function f() { throw new TypeError("no") }\nf()'), {
    outcome: { status: 'failed', error: 'Uncaught TypeError: no\n    at f (file:///main.js:1:22)\n    at file:///main.js:2:1' },
    fromSnapshot: true,
  });
  // The warm-up's clock (its host answered 0) is not the run's: performance.now() counts from the run's start.
  const clock = await run('performance.now() < 3_600_000 && Date.now() > 1_600_000_000_000');
  assert.deepEqual(clock, { outcome: { status: 'completed', result: 'true' }, fromSnapshot: true });
  assert.deepEqual(await run('await new Promise((r) => setTimeout(r, 1)); typeof internal + typeof __runjs_boot_internal + typeof __runjs_bind_host'), {
    outcome: { status: 'completed', result: '"undefinedundefinedundefined"' },
    fromSnapshot: true,
  });
});
