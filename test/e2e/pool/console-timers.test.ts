// Guest basics through the pool: console formatting and prefixes, timers (issue 2 §4).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PoolRunner } from '../../helpers/pool-runner.ts';

let r: PoolRunner;
before(async () => { r = new PoolRunner(2); await r.pool.ready(); });
after(() => r.close());

async function output(code: string): Promise<string> {
  const res = await r.run(code);
  assert.equal(res.outcome.status, 'completed', JSON.stringify(res.outcome));
  return res.output;
}

test('console prefixes: log/debug/trace none; info, warn, error prefixed; newline per call', async () => {
  assert.equal(
    await output('console.log("a"); console.debug("b"); console.trace("c"); console.info("d"); console.warn("e"); console.error("f")'),
    'a\nb\nc\n[INFO] d\n[WARN] e\n[ERROR] f\n',
  );
});

test('strings as they are, other values as JSON, joined by one space', async () => {
  assert.equal(await output('console.log("n:", 1, true, null, { a: [1, "two"] }, [3])'), 'n: 1 true null {"a":[1,"two"]} [3]\n');
  assert.equal(await output('console.log()'), '\n');
});

test('values JSON cannot express are printed sensibly instead of throwing', async () => {
  const out = await output([
    'const cyc: any = { name: "c" }; cyc.me = cyc;',
    'const shared = { s: 1 };',
    'console.log(undefined, function foo() {}, () => 1, Symbol("s"), 12n, NaN, -0);',
    'console.log(cyc);',
    'console.log({ a: shared, b: shared, big: 2n, f() {}, u: undefined });',
    'console.log(new Map([["k", 1]]), new Set([1, 2]));',
    'console.log(new Date(0));',
  ].join('\n'));
  assert.equal(out, [
    'undefined [Function: foo] [Function (anonymous)] Symbol(s) 12n NaN 0',
    '{"name":"c","me":"[Circular]"}',
    '{"a":{"s":1},"b":{"s":1},"big":"2n","f":"[Function: f]"}',
    '{"[Map]":[["k",1]]} {"[Set]":[1,2]}',
    '"1970-01-01T00:00:00.000Z"',
    '',
  ].join('\n'));
});

test('error objects print name, message and stack', async () => {
  const out = await output('console.error(new RangeError("out"))');
  assert.match(out, /^\[ERROR\] RangeError: out\n {4}at file:\/\/\/main\.js:\d+:\d+\n$/);
});

test('a hostile toJSON or getter does not break console', async () => {
  const out = await output('console.log({ toJSON() { throw new Error("no") } }); console.log("after")');
  assert.match(out, /^\[Unserializable: Error: no\n {4}at Object\.toJSON \(file:\/\/\/main\.js:\d+:\d+\)\n[^]*\]\nafter\n$/);
});

test('setTimeout returns integer ids ≥ 1, runs callbacks in order with their args; delay clamped', async () => {
  const out = await output([
    'const ids = [setTimeout(() => console.log("b"), 100), setTimeout((x) => console.log("a", x), -5, "arg"), setTimeout(() => console.log("c"), NaN)];',
    'console.log(ids.every((i) => Number.isInteger(i) && i >= 1), new Set(ids).size);',
  ].join('\n'));
  assert.equal(out, 'true 3\na arg\nc\nb\n');
});

test('clearTimeout cancels; unknown and fired ids are ignored', async () => {
  const out = await output([
    'const id = setTimeout(() => console.log("never"), 10);',
    'clearTimeout(id); clearTimeout(id); clearTimeout(9999); clearTimeout(undefined);',
    'const fired = setTimeout(() => { console.log("fired"); }, 1);',
    'await new Promise((r) => setTimeout(r, 100));',
    'clearTimeout(fired); console.log("done")',
  ].join('\n'));
  assert.equal(out, 'fired\ndone\n');
});

test('a cleared long timer does not keep the run alive', async () => {
  const res = await r.run('const t = setTimeout(() => {}, 60000); clearTimeout(t); "ok"');
  assert.deepEqual(res.outcome, { status: 'completed', result: '"ok"' });
  assert.ok(res.ms < 5000);
});

test('the run waits for pending timers after the module settles', async () => {
  assert.equal(await output('setTimeout(() => console.log("later"), 30); console.log("first")'), 'first\nlater\n');
});

test('setInterval is absent', async () => {
  assert.equal(await output('console.log(typeof setInterval, typeof clearInterval)'), 'undefined undefined\n');
});

test('the host-call primitive and prelude internals are unreachable', async () => {
  assert.equal(
    await output('console.log(typeof __runjs_host, Object.getOwnPropertyNames(globalThis).filter((n) => n.includes("runjs")).length)'),
    'undefined 0\n',
  );
});

test('overwriting builtins does not break console or timers for the script', async () => {
  const out = await output([
    'JSON.stringify = () => "hijacked"; JSON.parse = () => 1;',
    'Array.prototype.push = function () { throw new Error("no push") };',
    'Array.prototype.join = function () { return "bad" };',
    'Map.prototype.set = function () { throw new Error("no set") };',
    'Promise.prototype.then = function () { throw new Error("no then") };',
    'console.log("still", { a: 1 });',
    'setTimeout(() => console.log("timer ok"), 1);',
  ].join('\n'));
  assert.equal(out, 'still {"a":1}\ntimer ok\n');
});

test('output streams while the script runs', async () => {
  // The run waits 30 s after its first line: that line must arrive while it is still running
  // (no clock in the test: the run is cancelled once the line is here).
  const chunks: string[] = [];
  let arrived!: () => void;
  const early = new Promise<void>((res) => { arrived = res; });
  const { handle, result } = r.start('console.log("early"); await new Promise((r) => setTimeout(r, 30000)); console.log("late")', { timeoutMs: 60_000 }, (d) => { chunks.push(d); arrived(); });
  let ended = false;
  void result.then(() => { ended = true; });
  await early;
  assert.equal(ended, false, 'the line arrived before the run ended');
  assert.deepEqual(chunks, ['early\n']);
  handle.cancel();
  const done = await result;
  assert.equal(done.outcome.status, 'cancelled');
  assert.equal(done.output, 'early\n');
});

test('output beyond the per-run cap is cut with one notice line', async () => {
  const res = await r.run('for (let i = 0; i < 1000; i++) console.log("0123456789")', { maxOutputBytes: 100 });
  assert.equal(res.outcome.status, 'completed');
  assert.equal(res.output, '0123456789\n'.repeat(9) + '[runjs] output truncated: the limit of 100 bytes per execution was reached (--max-output-bytes)\n');
});
