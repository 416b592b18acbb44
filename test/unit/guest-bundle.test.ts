// The committed guest-platform bundle (worker/guest/generated/) must be what the sources and the
// pinned npm packages produce now; and the primordials transform must rewrite what it claims to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { buildGuestBundle, GENERATED_DIR, ROOT } from '../../scripts/guest-bundle/build.ts';
import { emptyUse, primordialize } from '../../scripts/guest-bundle/primordialize.ts';

test('worker/guest/generated is up to date (run `node scripts/gen-guest-bundle.ts` after changing worker/guest/platform)', async () => {
  const files = await buildGuestBundle();
  for (const [path, content] of files) {
    assert.ok(readFileSync(`${ROOT}${path}`, 'utf8') === content, `${path} is stale`);
  }
  const onDisk = readdirSync(`${ROOT}${GENERATED_DIR}/parts`).map((f) => `${GENERATED_DIR}/parts/${f}`);
  for (const p of onDisk) assert.ok(files.has(p), `${p} is no longer generated`);
});

test('primordialize rewrites statics, prototype reads and method calls, and leaves the rest', () => {
  const use = emptyUse();
  const out = primordialize([
    'const k = Object.keys(o);',
    'a.push(b.pop());',
    'Object.prototype.hasOwnProperty.call(o, "x");',
    'x?.push(1); y.push?.(2); Object.foo = 1; super_.bar();',
    'JSON.parse(s).map((v) => v);',
  ].join('\n'), use);
  assert.equal(out, [
    'const k = __runjs_P.Object_keys(o);',
    '__runjs_P.$push(a, __runjs_P.$pop(b));',
    '__runjs_P.$call(__runjs_P.ObjectProto_hasOwnProperty, o, "x");',
    'x?.push(1); y.push?.(2); Object.foo = 1; super_.bar();',
    '__runjs_P.$map(__runjs_P.JSON_parse(s), (v) => v);',
  ].join('\n'));
  assert.deepEqual([...use.methods].sort(), ['call', 'map', 'pop', 'push']);
  assert.deepEqual([...use.statics.get('Object')!], ['keys']);
});

test('primordialize leaves a namespace alone where the bundle declares its own binding of that name', () => {
  const out = primordialize('var JSON = { parse: () => 1 }; JSON.parse("x"); Math.max(1, 2);', emptyUse());
  assert.equal(out, 'var JSON = { parse: () => 1 }; JSON.parse("x"); __runjs_P.Math_max(1, 2);');
});
