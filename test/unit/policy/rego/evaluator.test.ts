// The evaluator's limits and side channels, which the case files cannot express: the step and
// time budget, print() output, errors naming the right file among several, and the data tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RegoError } from '../../../../shared/rego/errors.ts';
import { RegoPolicy } from '../../../../shared/rego/policy.ts';

const policy = (...texts: string[]): RegoPolicy => new RegoPolicy(texts.map((text, i) => ({ file: `/etc/runjs/p${i}.rego`, text })));

test('the step budget stops a long evaluation with eval_budget_error', () => {
  const p = policy('package x\np := count([y | some y in numbers.range(1, 100000); y > 0])\n');
  assert.throws(() => p.evaluate('data.x.p', {}, { maxSteps: 10_000, timeoutMs: 10_000 }), (e: unknown) => e instanceof RegoError && e.code === 'eval_budget_error' && e.message === 'eval_budget_error: evaluation exceeded 10000 steps');
  assert.equal(p.evaluate('data.x.p', {}, { maxSteps: 1_000_000, timeoutMs: 10_000 }).value, 100000);
});

test('the time budget stops a slow evaluation with eval_budget_error', () => {
  const p = policy('package x\np := count({[a, b] | some a in numbers.range(1, 3000); some b in numbers.range(1, 3000)})\n');
  const t0 = performance.now();
  assert.throws(() => p.evaluate('data.x.p', {}, { maxSteps: 1e12, timeoutMs: 30 }), /^RegoError: eval_budget_error: evaluation exceeded 30 ms$/);
  assert.ok(performance.now() - t0 < 1000, `took ${performance.now() - t0} ms`);
});

test('print() lines: strings as they are, values as Rego, undefined as <undefined>; print never fails', () => {
  const p = policy('package x\np if {\n  print("host", input.host, {"a": [1]}, {1})\n  print(input.missing)\n}\n');
  const d = p.evaluate('data.x.p', { host: 'h' });
  assert.equal(d.value, true);
  assert.deepEqual(d.prints, ['host h {"a": [1]} {1}', '<undefined>']);
});

test('errors name the file, line and column among several modules', () => {
  assert.throws(() => policy('package a\nok := 1\n', 'package b\n\nq if {\n  1 == \n}\n'), { message: '/etc/runjs/p1.rego:5:1: rego_parse_error: unexpected \'}\'' });
  assert.throws(() => policy('package a\nok := 1\n', 'package b\nq if upper(1, 2, 3)\n'), { message: '/etc/runjs/p1.rego:2:6: rego_type_error: upper: arity mismatch: takes 1 argument, got 3' });
});

test('defines(): rules and documents, not functions or packages', () => {
  const p = policy('package mcp.fetch\nallow if true\nf(x) := x\nsub.rule := 1\n');
  assert.deepEqual(['data.mcp.fetch.allow', 'data.mcp.fetch.f', 'data.mcp.fetch', 'data.mcp.fetch.sub.rule', 'data.mcp.nope.allow'].map((r) => p.defines(r)), [true, false, false, true, false]);
});

test('a policy is compiled once and evaluated many times with different inputs', () => {
  const p = policy('package mcp.fetch\ndefault allow := false\nallow if input.n % 2 == 0\n');
  const out = Array.from({ length: 6 }, (_, n) => p.evaluate('data.mcp.fetch.allow', { n }).value);
  assert.deepEqual(out, [true, false, true, false, true, false]);
});

test('regular expressions run in linear time: a catastrophic pattern against a hostile input returns at once', () => {
  const p = policy('package x\np := regex.match("^(a+)+$", input.s)\nq := regex.match("^(\\\\w+\\\\s?)*$", input.s)\n');
  const t0 = performance.now();
  assert.equal(p.evaluate('data.x.p', { s: `${'a'.repeat(50_000)}!` }).value, false);
  assert.equal(p.evaluate('data.x.q', { s: `${'a '.repeat(20_000)}!` }).value, false);
  assert.ok(performance.now() - t0 < 1000, `took ${performance.now() - t0} ms`);
});
