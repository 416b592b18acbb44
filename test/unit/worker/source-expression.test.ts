// assert.ok's quoted expression (worker/source/source-expression.ts): Node 24's rules on one line,
// from the column V8 reports (the callee's name) and from the ones QuickJS reports (the call's
// `(`, or a keyword before the call).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_LINE, sourceExpression } from '../../../worker/source/source-expression.ts';

test('from V8 columns: member accesses before the name are kept; the text ends at the closing parenthesis', () => {
  const line = "m(() => assert.ok(x === 1, 'm')); other()";
  assert.equal(sourceExpression(line, line.indexOf('ok(')), "assert.ok(x === 1, 'm')");
  assert.equal(sourceExpression('  a().ok(false);', 6), 'ok(false)');
  assert.equal(sourceExpression("x; assert['ok'](0)", "x; assert['ok'](0)".indexOf("'ok'")), "assert['ok'](0)");
  assert.equal(sourceExpression('assert(a &&', 0), 'assert(a &&');
  assert.equal(sourceExpression('assert.ok(1); assert.ok(0);', 21), 'assert.ok(0)');
});

test('from QuickJS columns: a `(` moves back to the name, a leading keyword is skipped', () => {
  assert.equal(sourceExpression('  a().ok(false);', 8), 'ok(false)');
  assert.equal(sourceExpression('function f() { return  assert.ok(""); }', 15), 'assert.ok("")');
  assert.equal(sourceExpression('await assert (v)', 0), 'assert (v)');
});

test('no expression: out of range or blank; control characters are escaped as Node does', () => {
  assert.equal(sourceExpression('abc', 5), undefined);
  assert.equal(sourceExpression('   ', 1), undefined);
  assert.equal(sourceExpression(`assert(0);${' '.repeat(MAX_LINE)}`, 0), undefined);
  assert.equal(sourceExpression(`assert(0);${' '.repeat(MAX_LINE - 10)}`, 0), 'assert(0)');
  assert.equal(sourceExpression('assert("a\u0001b")', 0), 'assert("a\\u0001b")');
  assert.equal(sourceExpression('assert(`open', 0), 'assert(`open');
});
