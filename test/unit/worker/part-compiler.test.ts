// The V8 part compiler's code cache survives the prelude snapshot: a cache made in an isolate
// booted without a snapshot (the worker's first realm) is rejected by isolates booted from one,
// so the compiler keeps the cache V8 makes then, and later snapshot isolates accept it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ivm from 'isolated-vm';
import { PartCompiler } from '../../../worker/engines/v8/part-compiler.ts';

const SOURCE = 'const answer = 6 * 7; __runjs_P.value = answer;';

function compileIn(compiler: PartCompiler, snapshot: ivm.ExternalCopy<ArrayBuffer> | undefined): number {
  const isolate = new ivm.Isolate({ memoryLimit: 16, ...(snapshot ? { snapshot } : {}) });
  try {
    const context = isolate.createContextSync();
    context.global.setSync('__runjs_compiled', compiler.compile(isolate, context, 'answer'));
    return context.evalSync('const P = {}; __runjs_compiled(P, () => {}); P.value') as number;
  } finally {
    isolate.dispose();
  }
}

test('a code cache rejected by snapshot isolates is replaced by the one V8 makes there, which the next accepts', () => {
  const compiler = new PartCompiler((name) => (name === 'answer' ? SOURCE : undefined));
  const snapshot = ivm.Isolate.createSnapshot([{ code: 'globalThis.booted = true;' }]);
  assert.equal(compileIn(compiler, undefined), 42);
  const plain = compiler.cacheOf('answer');
  assert.notEqual(plain, undefined);
  assert.equal(compileIn(compiler, snapshot), 42);
  const fromSnapshot = compiler.cacheOf('answer');
  assert.notEqual(fromSnapshot, plain); // rejected: a new cache was made and kept
  assert.equal(compileIn(compiler, snapshot), 42);
  assert.equal(compiler.cacheOf('answer'), fromSnapshot); // accepted: nothing new was made
});

test('warm: after a run used a part, its cache is made again with the functions that ran; once per part', () => {
  // `helper` is compiled lazily (when first called), so the first cache has only the top level.
  const source = 'function helper(a) { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * (i + 1); return s; }\n__runjs_P.value = helper([1, 2, 3]);';
  const compiler = new PartCompiler((name) => (name === 'sum' ? source : undefined));
  const snapshot = ivm.Isolate.createSnapshot([{ code: 'globalThis.booted = true;' }]);
  const isolate = new ivm.Isolate({ memoryLimit: 16, snapshot });
  const second = new ivm.Isolate({ memoryLimit: 16, snapshot });
  try {
    const context = isolate.createContextSync();
    context.global.setSync('__runjs_compiled', compiler.compile(isolate, context, 'sum'));
    assert.equal(context.evalSync('const P = {}; __runjs_compiled(P, () => {}); P.value'), 14);
    const cold = compiler.cacheOf('sum')!;
    compiler.warm(isolate);
    const warm = compiler.cacheOf('sum')!;
    assert.ok(warm.copy().byteLength > cold.copy().byteLength, `warm ${warm.copy().byteLength} bytes, cold ${cold.copy().byteLength}`);
    // The next isolate accepts the warm cache (nothing new is made) and has nothing left to warm.
    const context2 = second.createContextSync();
    context2.global.setSync('__runjs_compiled', compiler.compile(second, context2, 'sum'));
    assert.equal(context2.evalSync('const P = {}; __runjs_compiled(P, () => {}); P.value'), 14);
    compiler.warm(second);
    assert.equal(compiler.cacheOf('sum'), warm);
  } finally {
    isolate.dispose();
    second.dispose();
  }
});
