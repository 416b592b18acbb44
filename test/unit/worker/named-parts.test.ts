// The parts a V8 run's main module names, found on the host (worker/engines/v8/named-parts.ts):
// whole identifiers of lazy globals, literal require()/import() of builtins, crypto.subtle and the
// console methods the prelude lacks; nothing for a trivial script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NAMED_SCAN_MAX_CHARS, partsNamedIn } from '../../../worker/engines/v8/named-parts.ts';

test('partsNamedIn: the parts of the globals and builtins a source names, each once', () => {
  assert.deepEqual(partsNamedIn('export const main = 1 + 1;'), []);
  assert.deepEqual(partsNamedIn('const u = new URL("http://a/"); new URL(u)'), ['web']);
  assert.deepEqual(partsNamedIn('await fetch("http://x/")').sort(), ['fetch']);
  // Whole identifiers only: a longer name or a property of the same name is not the global.
  assert.deepEqual(partsNamedIn('const myURL = 1; o.fetchAll(); const fetchy = 2'), []);
  assert.deepEqual(partsNamedIn('const { inspect } = require("node:util"); await import("buffer")').sort(), ['buffer', 'util', 'web']); // require itself is a global of the web part
  assert.deepEqual(partsNamedIn('require("not-a-builtin"); x.require("zlib")'), ['web']);
  assert.ok(partsNamedIn('const k = await crypto.subtle.digest("SHA-256", d)').includes('webcrypto'));
  assert.deepEqual(partsNamedIn('console.table([1]); console.log(1)'), ['web']);
  assert.deepEqual(partsNamedIn(`fetch()${' '.repeat(NAMED_SCAN_MAX_CHARS)}`), []);
});
