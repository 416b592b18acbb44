// Errors agree on both engines in name and message; stack frames point into the script on both,
// though their text differs (QuickJS's own column numbers, and no "Name: message" header line on
// the errors QuickJS itself throws — docs/script-environment.md "Engines").
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

function firstLine(outcome: { status: string; error?: string }): string {
  assert.equal(outcome.status, 'failed');
  return (outcome.error ?? '').split('\n')[0]!;
}

guestSuite('errors', (g) => {
  g.test('an uncaught error fails the run as "Uncaught Name: message" followed by frames in main.js', async (ctx) => {
    const { outcome } = await ctx.run('function inner() { throw new TypeError("bad input") }\nfunction outer() { inner() }\nouter()');
    assert.equal(firstLine(outcome), 'Uncaught TypeError: bad input');
    const frames = (outcome as { error: string }).error.split('\n').slice(1);
    assert.ok(frames.length >= 2 && frames.every((f) => /^ {4}at .*file:\/\/\/main\.js:\d+:\d+\)?$/.test(f)), frames.join('\n'));
    assert.match(frames[0]!, /^ {4}at inner \(file:\/\/\/main\.js:\d+:\d+\)$/);
  });

  g.test('an error thrown inside the platform shows only the script\'s frames, also through native calls', async (ctx) => {
    const frames = async (code: string): Promise<string[]> => {
      const { outcome } = await ctx.run(code);
      assert.equal(outcome.status, 'failed');
      return (outcome as { error: string }).error.split('\n').map((l) => l.replace(/:\d+:\d+\)?$/, '').replace(/^ {4}at /, ''));
    };
    assert.deepEqual(await frames('function userFn() { new URL("bad") }\nuserFn()'), ['Uncaught TypeError: Invalid URL', 'userFn (file:///main.js', 'file:///main.js']);
    assert.deepEqual(await frames('const { EventEmitter } = require("node:events");\nfunction emitIt() { new EventEmitter().emit("error", new Error("boom")) }\nemitIt()'), ['Uncaught Error: boom', 'emitIt (file:///main.js', 'file:///main.js']);
    // The script's callback called by the platform keeps its frame (V8 also names the receiver).
    const cb = await frames('const { EventEmitter } = require("node:events"); const e = new EventEmitter();\nfunction userCb() { throw new Error("in cb") }\ne.on("x", userCb); e.emit("x")');
    assert.equal(cb[0], 'Uncaught Error: in cb');
    assert.match(cb[1]!, /^(EventEmitter2\.)?userCb \(file:\/\/\/main\.js$/);
    assert.equal(cb.at(-1), 'file:///main.js');
    assert.ok(cb.every((f) => !f.includes('<input>') && !f.includes('runjs:prelude')), cb.join('\n'));
  });

  g.test('custom error classes, causes, non-error throws and rejections', async (ctx) => {
    assert.equal(firstLine((await ctx.run('class ValidationError extends Error { constructor(m: string) { super(m); this.name = "ValidationError" } }\nthrow new ValidationError("field x")')).outcome), 'Uncaught ValidationError: field x');
    assert.equal(firstLine((await ctx.run('throw { code: 42 }')).outcome), 'Uncaught {"code":42}');
    assert.equal(firstLine((await ctx.run('throw "plain"')).outcome), 'Uncaught plain');
    assert.equal(firstLine((await ctx.run('await Promise.reject(new RangeError("nope"))')).outcome), 'Uncaught RangeError: nope');
    assert.equal(firstLine((await ctx.run('setTimeout(() => { throw new Error("in timer") }, 1); await new Promise((ok) => setTimeout(ok, 20))')).outcome), 'Uncaught Error: in timer');
  });

  g.test('caught errors keep name, message, cause and prototype chain', async (ctx) => {
    assert.equal(await ctx.output([
      'try { JSON.parse("{") } catch (e) { console.log(e instanceof SyntaxError, (e as Error).name) }',
      'try { (null as any).x } catch (e) { console.log(e instanceof TypeError, (e as Error).name) }',
      'try { undefinedName } catch (e) { console.log(e instanceof ReferenceError, (e as Error).name) }',
      'try { new Array(-1) } catch (e) { console.log(e instanceof RangeError, (e as Error).name) }',
      'const e = new Error("outer", { cause: new Error("inner") }); console.log(e.message, (e.cause as Error).message);',
      'const agg = new AggregateError([new Error("a")], "many"); console.log(agg.name, agg.message, agg.errors.length);',
      'declare const undefinedName: unknown;',
    ].join('\n')), 'true SyntaxError\ntrue TypeError\ntrue ReferenceError\ntrue RangeError\nouter inner\nAggregateError many 1\n');
  });

  g.test('deep recursion is a RangeError the script can catch', async (ctx) => {
    assert.equal(await ctx.output('function f(): number { return f() + 1 }\ntry { f() } catch (e) { console.log(e instanceof RangeError, (e as Error).name) }'), 'true RangeError\n');
  });

  g.test('Error.captureStackTrace(target, fn) leaves out fn and the frames above it, as V8 does', async (ctx) => {
    const code = [
      'function outer() { return inner() }',
      'function inner() { const o = {}; Error.captureStackTrace(o, inner); return o.stack }',
      'const s = outer()',
      "const assert = require('node:assert')",
      'let t = \'\'',
      'try { assert.throws(() => {}) } catch (e) { t = e.stack }',
      "console.log(s.includes('inner'), s.includes('outer'), t.includes('throws'), t.includes('main.js'))",
    ].join('\n');
    assert.equal(await ctx.output(code), 'false true false true\n');
  });

  g.test('the script\'s top level is an anonymous frame in err.stack as the script reads it, as a module\'s is in Node', async (ctx) => {
    // Plain JavaScript runs as written (no transform), so its lines are the script's own.
    const out = await ctx.output([
      'function named() { return new Error("here").stack }',
      'const a = named()',
      'let b = ""',
      'try { null.x } catch (e) { b = e.stack }',
      'await 0',
      'const c = new Error("after await").stack',
      'const main = (s) => s.split("\\n").filter((l) => l.includes("main.js")).map((l) => l.trim().replace(/:\\d+\\)?$/, ""))',
      'console.log(JSON.stringify([main(a), main(b), main(c)]))',
      'console.log([a, b, c].some((s) => s.includes("__runjs_main")))',
    ].join('\n'));
    // QuickJS writes an anonymous frame as `<anonymous> (file:///main.js:L:C)`.
    const top = ctx.engine === 'v8' ? (line: number) => `at file:///main.js:${line}` : (line: number) => `at <anonymous> (file:///main.js:${line}`;
    assert.equal(out, JSON.stringify([['at named (file:///main.js:1', top(2)], [top(4)], [top(6)]]) + '\nfalse\n');
  });

  g.test('a constructed error\'s stack begins with its "Name: message" line on both engines, and the constructors are the usual ones', async (ctx) => {
    const out = await ctx.output([
      'function make() { return new Error("x") }',
      'class Custom extends Error {}',
      'Custom.prototype.name = "CustomError"',
      'const heads = [make(), new Custom("y"), TypeError("z"), new RangeError(), new AggregateError([], "agg")].map((e) => e.stack.split("\\n")[0])',
      'console.log(JSON.stringify(heads))',
      'console.log(make().stack.split("\\n")[1].trim().startsWith("at make (file:///main.js:1"), make().stack.endsWith("\\n"), /construct \\(native\\)|at Error \\(/.test(make().stack))',
      'console.log(Error.name, Error.length, AggregateError.length, Object.getPrototypeOf(TypeError) === Error, TypeError.prototype.constructor === TypeError, new TypeError("q") instanceof Error)',
      'try { null.x } catch (e) { console.log(e instanceof TypeError, e.constructor === TypeError) }',
      'console.log(new Error("m".repeat(70000)).stack.startsWith("Error: mmm"))',
    ].join('\n'));
    // QuickJS leaves out a head over 64 KiB (the stack would be a second copy of the message).
    assert.equal(out, `["Error: x","CustomError: y","TypeError: z","RangeError","AggregateError: agg"]\ntrue false false\nError 1 2 true true true\ntrue true\n${ctx.engine === 'v8'}\n`);
  });

  g.test('the stack\'s head line is the error\'s at the first read, and Error.stackTraceLimit bounds the frames, on both engines', async (ctx) => {
    const out = await ctx.output([
      'const late = new Error(); late.message = "set later"; late.name = "Renamed"',
      'const read = new Error("before"); void read.stack; read.message = "after"',
      'function deep(n: number): Error { return n === 0 ? new TypeError("deep") : deep(n - 1) }',
      'Error.stackTraceLimit = 2; const two = deep(5); Error.stackTraceLimit = 0; const none = new Error("zero")',
      'Error.stackTraceLimit = "x" as any; const off = new Error("off"); Error.stackTraceLimit = 10',
      'const set = new Error("s"); set.stack = "replaced"',
      'console.log(JSON.stringify([late.stack.split("\\n")[0], read.stack.split("\\n")[0], two.stack.split("\\n").length, none.stack, off.stack, "stack" in off, set.stack]))',
      'console.log(JSON.stringify(Object.keys(Object.getOwnPropertyDescriptor(new Error(), "stack")!)), typeof Error.prepareStackTrace)',
    ].join('\n'));
    // Node installs Error.prepareStackTrace (V8 calls it at the first read); QuickJS has no such hook.
    assert.equal(out, `["Renamed: set later","Error: before",3,"Error: zero",null,true,"replaced"]\n["get","set","enumerable","configurable"] ${ctx.engine === 'v8' ? 'function' : 'undefined'}\n`);
  });

  g.test('platform frames in err.stack name no internal global, whether the realm was booted from source or from the startup snapshot', async (ctx) => {
    // V8 builds its startup snapshot once the worker has idled a moment; runs spaced out reach both kinds of realm.
    for (let i = 0; i < 4; i++) {
      const out = await ctx.output('function f() { throw new Error("x") }\nlet s = ""; try { f() } catch (e) { s = e.stack }\nconsole.log(JSON.stringify(s.split("\\n").filter((l) => l.includes("runjs:prelude")).map((l) => l.trim().split(" ")[1])), /__runjs/.test(s))');
      // The platform's own frames keep their names (QuickJS also shows its bridge's dispatch).
      assert.equal(out, ctx.engine === 'v8' ? '["track","trackRun"] false\n' : '["track","trackRun","dispatch"] false\n');
      await new Promise((r) => setTimeout(r, 300));
    }
  });

  g.test('positions on the script\'s first line are its own in err.stack on V8, which compiles the wrapper on a line of its own', async (ctx) => {
    const out = await ctx.output('try { null.x } catch (e) { console.log(e.stack.split("\\n").find((l) => l.includes("main.js")).trim()) }');
    // QuickJS has no line offset: its first line's columns count the wrapper's prologue too.
    if (ctx.engine === 'v8') assert.equal(out, 'at file:///main.js:1:12\n');
    else assert.match(out, /^at <anonymous> \(file:\/\/\/main\.js:1:\d+\)\n$/);
  });
});
