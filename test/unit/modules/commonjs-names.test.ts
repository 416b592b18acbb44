// The named exports a CommonJS entry gives ESM importers (supervisor/modules/bundle.ts), found by
// reading it as Node's cjs-module-lexer does for what TypeScript and Babel emit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commonjsNames, loaded } from '../../../supervisor/modules/bundle.ts';

test('exports.x =, module.exports.x =, Object.defineProperty(exports, "x"); not __esModule, default or comparisons', () => {
  const source = [
    'Object.defineProperty(exports, "__esModule", { value: true });',
    'exports.b = exports.a = void 0;',
    "Object.defineProperty(exports, 'Client', { enumerable: true, get: function () { return c.Client; } });",
    'module.exports.helper = helper;',
    'exports.default = 1;',
    'if (exports.ready == null) {}',
  ].join('\n');
  assert.deepEqual(commonjsNames(source), ['Client', 'a', 'b', 'helper']);
});

test('the bundle mark carries the names; the older mark without names still reads', () => {
  assert.deepEqual(loaded('/* runjs:commonjs a,b */\nmodule source'), { source: 'module source', commonjs: true, names: ['a', 'b'] });
  assert.deepEqual(loaded('/* runjs:commonjs  */\nx'), { source: 'x', commonjs: true });
  assert.deepEqual(loaded('/* runjs:commonjs */\nx'), { source: 'x', commonjs: true });
  assert.deepEqual(loaded('export default 1;'), { source: 'export default 1;', commonjs: false });
});
