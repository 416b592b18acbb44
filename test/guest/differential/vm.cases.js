// node:vm: contexts as scope objects (no second realm in a run: the builtins are the run's own,
// see known.ts), argument validation with Node's codes and messages, compileFunction.
const vm = () => require('node:vm');
const corpus = {
  'module keys': () => Object.keys(vm()).sort(),
  'constants': () => Object.keys(vm().constants).map((k) => [k, typeof vm().constants[k], String(vm().constants[k])]),
  'docs example': () => {
    const context = { x: 2 };
    vm().createContext(context);
    vm().runInContext('x += 40; var y = 17;', context);
    return [context.x, context.y, Object.keys(context)];
  },
  'runInNewContext expression': () => [vm().runInNewContext('a * 2', { a: 21 }), vm().runInNewContext('[1, 2].length'), JSON.stringify(vm().runInNewContext('({ a: 1 })'))],
  'globals written to the context': () => {
    const c = vm().createContext({ Array: 5 });
    vm().runInContext('Array = 7; z = 1; globalThis.w = 2', c);
    return [c.Array, c.z, c.w, typeof globalThis.z, typeof globalThis.w, typeof Array];
  },
  'builtins visible in a context': () => [typeof vm().runInNewContext('Map'), vm().runInNewContext('JSON.stringify([1])'), vm().runInNewContext('Math.max(1, 3)')],
  'this is the context global': () => vm().runInNewContext('this === globalThis'),
  'the context global has only its names and the builtins': () => vm().runInNewContext("['foo' in globalThis, 'Array' in globalThis, 'x' in this, 'foo' in this, Object.keys(globalThis).join(), delete globalThis.x, 'x' in globalThis]", { x: 1 }),
  'typeof an undeclared name': () => vm().runInNewContext('typeof notDeclaredAnywhere'),
  'isContext': () => [vm().isContext(vm().createContext()), vm().isContext({}), vm().isContext(vm().createContext({ a: 1 }))],
  'createContext returns its argument': () => { const o = {}; return vm().createContext(o) === o; },
  'Script runInThisContext': () => [new (vm().Script)('1 + 1').runInThisContext(), vm().runInThisContext('typeof globalThis')],
  'Script reused across contexts': () => {
    const s = new (vm().Script)('n = (typeof n === "number" ? n : 0) + 1');
    const a = vm().createContext({});
    const b = vm().createContext({ n: 10 });
    s.runInContext(a); s.runInContext(a); s.runInContext(b);
    return [a.n, b.n];
  },
  'syntax error at construction': () => new (vm().Script)('a b'),
  'runtime error thrown to the caller': () => vm().runInNewContext('throw new RangeError("boom")'),
  'runInContext on a plain object': () => vm().runInContext('1', {}),
  'runInContext on a number': () => vm().runInContext('1', 5),
  'isContext not an object': () => vm().isContext(1),
  'isContext null': () => vm().isContext(null),
  'createContext not an object': () => vm().createContext('x'),
  'runInNewContext not an object': () => vm().runInNewContext('1', 5),
  'Script bad options': () => new (vm().Script)('1', 5),
  'compileFunction': () => [vm().compileFunction('return a + b', ['a', 'b'])(1, 2), vm().compileFunction('return this', [])() === undefined],
  'compileFunction contextExtensions': () => vm().compileFunction('return a + k', ['a'], { contextExtensions: [{ k: 10 }] })(1),
  'compileFunction code not a string': () => vm().compileFunction(1),
  'compileFunction params not an array': () => vm().compileFunction('', 'a'),
  'builtins are the realm\'s own': () => vm().runInNewContext('Array') === Array,
  'function declarations reach the context': () => { const c = vm().createContext({}); vm().runInContext('function f() {}', c); return typeof c.f; },
  // The evaluator's own names: a context's `eval` or a filename cannot change what runs.
  'an eval property on the context': () => [vm().runInNewContext('1 + 1', { eval: () => 'hijacked' }), vm().runInNewContext('eval("a")', { a: 3 })],
  'a filename with a line break': () => [vm().runInNewContext('x', { x: 1 }, { filename: 'a\nx = 2' }), vm().runInThisContext('1', { filename: 'a\n2' }), new (vm().Script)('x', 'b\u2028x = 3').runInNewContext({ x: 4 })],
  // compileFunction's scopes are live: its globals are the parsing context's, its extensions the objects themselves.
  'compileFunction parsingContext': () => { const c = vm().createContext({ q: 4 }); const r = vm().compileFunction('g = 5; return q', [], { parsingContext: c })(); return [r, c.g, typeof globalThis.g]; },
  'compileFunction extensions are live': () => {
    const ext = { a: 1 };
    const f = vm().compileFunction('a = a + 1; return a', [], { contextExtensions: [ext] });
    ext.a = 9;
    return [f(), ext.a, vm().compileFunction('return a', [], { contextExtensions: [{ a: 1 }, { a: 2 }] })()];
  },
  'compileFunction extensions and context': () => { const c = vm().createContext({}); const ext = { a: 1 }; vm().compileFunction('a = 2; b = 3', [], { contextExtensions: [ext], parsingContext: c })(); return [ext.a, c.b, 'b' in ext]; },
  'compileFunction body that closes the function': () => { globalThis.ranAtCompile = 0; try { vm().compileFunction('}); globalThis.ranAtCompile = 1; (function () {', []); } catch (e) { return [e.name, globalThis.ranAtCompile]; } return ['compiled', globalThis.ranAtCompile]; },
  'compileFunction extension not an object': () => vm().compileFunction('', [], { contextExtensions: [1] }),
  'Script that closes its check early': () => { globalThis.ranAtCompile = 0; try { new (vm().Script)('}); globalThis.ranAtCompile = 2; (function () {'); } catch (e) { return [e.name, globalThis.ranAtCompile]; } return ['compiled', globalThis.ranAtCompile]; },
  'Script top-level return': () => new (vm().Script)('return 1'),
  'reading an undeclared name': () => vm().runInNewContext('notDeclaredAnywhere'),
};
