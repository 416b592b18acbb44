// The heap-mode rewrite of top-level declarations (worker/source/persist-top-level.ts through
// wrapMain): what each declaration form becomes, that line numbers are kept, and that runs
// without the option are untouched. Behaviour across runs is tested end to end in
// test/e2e/heaps/heap-rest.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrapMain } from '../../../worker/source/wrap-main.ts';

const body = (source: string): string => source.slice(source.indexOf('{') + 1);

test('declarations become globalThis assignments; references are left alone', () => {
  const js = 'foo()\nlet a = 1, {b, c: [d = 2], ...r} = o;\nvar v;\nexport const e = 5;\nclass K { m() { return a; } }\nfunction f(n) { return n ? f(n - 1) : a; }\na + 1';
  const { source } = wrapMain(js, { persistTopLevel: true });
  assert.ok(source.includes(';(globalThis["a"] = 1), ({b: globalThis["b"], c: [globalThis["d"] = 2], ...globalThis["r"]} = o);'), source);
  assert.ok(source.includes(';(globalThis["v"] = globalThis["v"]);'), source);
  assert.ok(source.includes('if (!("v" in globalThis)) globalThis["v"] = undefined;'), source);
  assert.ok(source.includes(';(globalThis["e"] = 5);'), source);
  assert.ok(source.includes(';globalThis["K"] = class K { m() { return a; } };'), source);
  assert.ok(source.includes('function __runjs_fn$f(n) { return n ? f(n - 1) : a; }'), source);
  assert.ok(source.includes('globalThis["f"] = Object.defineProperty(__runjs_fn$f, "name", { value: "f" });'), source);
  assert.equal(body(source).split('\n').length, js.split('\n').length + 3, 'every line stays on its line (plus the return line, the closing line and the final newline)');
});

test('nested declarations stay local, and without the option nothing changes', () => {
  const js = 'for (let i = 0; i < 2; i++) { const j = i; }\n{ let k = 1; }\nlet x = 1;';
  const persisted = wrapMain(js, { persistTopLevel: true }).source;
  assert.ok(persisted.includes('for (let i = 0; i < 2; i++) { const j = i; }\n{ let k = 1; }\n;(globalThis["x"] = 1);'), persisted);
  assert.ok(wrapMain(js).source.includes('let x = 1;'));
  assert.ok(!wrapMain(js).source.includes('globalThis'));
});
