// Outcomes and exact texts through the real pool (issue 2 §6), plus TypeScript handling (§5).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PoolRunner } from '../../helpers/pool-runner.ts';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';

let r: PoolRunner;
before(async () => { r = new PoolRunner(2); await r.pool.ready(); });
after(() => r.close());

test('result is the JSON of the last top-level expression statement', async () => {
  assert.deepEqual((await r.run('1 + 1')).outcome, { status: 'completed', result: '2' });
  assert.deepEqual((await r.run('const o = { a: [1, "x"] };\no')).outcome, { status: 'completed', result: '{"a":[1,"x"]}' });
  assert.deepEqual((await r.run('"hi"')).outcome, { status: 'completed', result: '"hi"' });
  assert.deepEqual((await r.run('let x = 5; x * 2; function f() {}')).outcome, { status: 'completed', result: '10' });
});

test('a promise as the last expression is awaited', async () => {
  assert.deepEqual((await r.run('new Promise((res) => setTimeout(() => res(42), 5))')).outcome, { status: 'completed', result: '42' });
});

test('export default is the result when no expression statement ends the script', async () => {
  assert.deepEqual((await r.run('export default { ok: true }')).outcome, { status: 'completed', result: '{"ok":true}' });
  assert.deepEqual((await r.run('export default function named() { return 1 }')).outcome, { status: 'completed', result: '' });
});

test('no value gives the empty string', async () => {
  assert.deepEqual((await r.run('const a = 1;')).outcome, { status: 'completed', result: '' });
  assert.deepEqual((await r.run('undefined')).outcome, { status: 'completed', result: '' });
  assert.deepEqual((await r.run('console.log("x")')).outcome, { status: 'completed', result: '' });
});

test('results JSON cannot express are still serialised', async () => {
  assert.deepEqual((await r.run('10n')).outcome, { status: 'completed', result: '"10n"' });
  assert.deepEqual((await r.run('const a: any = { n: 1 }; a.self = a; a')).outcome, { status: 'completed', result: '{"n":1,"self":"[Circular]"}' });
});

test('top-level await works', async () => {
  const res = await r.run('const v = await new Promise<number>((ok) => setTimeout(() => ok(7), 10));\nv * 3');
  assert.deepEqual(res.outcome, { status: 'completed', result: '21' });
});

test('an uncaught error fails the run with its name, message and stack', async () => {
  const { outcome } = await r.run('function boom() { throw new TypeError("bad thing") }\nboom()');
  assert.equal(outcome.status, 'failed');
  assert.ok('error' in outcome);
  assert.match(outcome.error, /^Uncaught TypeError: bad thing\n {4}at boom \(file:\/\/\/main\.js:\d+:\d+\)/);
  assert.doesNotMatch(outcome.error, /runjs:prelude|__runjs_main/);
});

test('throwing a non-error value is reported', async () => {
  assert.deepEqual((await r.run('throw { code: 3 }')).outcome, { status: 'failed', error: 'Uncaught {"code":3}' });
  assert.deepEqual((await r.run('throw "plain"')).outcome, { status: 'failed', error: 'Uncaught plain' });
});

test('an error thrown by a timer callback fails the run', async () => {
  const { outcome } = await r.run('setTimeout(() => { throw new Error("late") }, 5); 1');
  assert.equal(outcome.status, 'failed');
  assert.ok('error' in outcome && outcome.error.startsWith('Uncaught Error: late'));
});

test('awaiting a promise nothing can settle fails at once', async () => {
  const res = await r.run('await new Promise(() => {})', { timeoutMs: 20_000 });
  assert.deepEqual(res.outcome, { status: 'failed', error: EXECUTION_ERRORS.DEADLOCK });
  assert.ok(res.ms < 5_000, `took ${res.ms} ms`);
});

test('TypeScript: types, interfaces, enums, type-only imports and <T>x assertions', async () => {
  const code = [
    'import type { Foo } from "node:nothing";',
    'interface P { x: number }',
    'type Q = P & { y?: string };',
    'enum Color { Red, Green = 5 }',
    'const p: Q = { x: <number>(2) };',
    'function id<T>(v: T): T { return v }',
    'id<number>(p.x) + Color.Green',
  ].join('\n');
  assert.deepEqual((await r.run(code)).outcome, { status: 'completed', result: '7' });
});

test('TypeScript: JSX is rejected with the parse error text and position', async () => {
  const { outcome } = await r.run('const el = <div>hi</div>;');
  assert.deepEqual(outcome, { status: 'failed', error: 'TypeScript parse error: 1:26: Unterminated regular expression' });
  const syntax = await r.run('let = ;');
  assert.equal(syntax.outcome.status, 'failed');
  assert.ok('error' in syntax.outcome && syntax.outcome.error.startsWith(EXECUTION_ERRORS.TYPESCRIPT_PREFIX));
});

test('external imports name --allow-external-modules; unknown node: modules are refused', async () => {
  assert.deepEqual((await r.run('import _ from "npm:lodash"; _')).outcome, {
    status: 'failed',
    error: "External module imports are disabled. Cannot import npm package 'npm:lodash'. Start the server with --allow-external-modules to enable.",
  });
  assert.deepEqual((await r.run('import x from "jsr:@std/path"; x')).outcome, {
    status: 'failed',
    error: "External module imports are disabled. Cannot import JSR package 'jsr:@std/path'. Start the server with --allow-external-modules to enable.",
  });
  assert.deepEqual((await r.run('import x from "https://esm.sh/x"; x')).outcome, {
    status: 'failed',
    error: "External module imports are disabled. Cannot import URL module 'https://esm.sh/x'. Start the server with --allow-external-modules to enable.",
  });
  const dgram = await r.run('import dgram from "node:dgram"; dgram');
  assert.equal(dgram.outcome.status, 'failed');
  assert.ok('error' in dgram.outcome && dgram.outcome.error.startsWith("Module 'node:dgram' is not available in runjs."));
});
