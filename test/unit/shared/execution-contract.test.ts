// The request contract of an execution (shared/execution-contract.ts): what the service applies,
// and that the REST JSON Schema, the MCP run_js schema and the flag table state the same bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunjsError } from '../../../shared/errors.ts';
import {
  HEAP_MB_FLOOR, HEAP_MB_MIN, maxHeapMb, QUICKJS_MAX_HEAP_MB, resolveExecutionLimits, TIMEOUT_SECS, type ExecutionLimits,
} from '../../../shared/execution-contract.ts';
import { SCHEMAS } from '../../../shared/schemas/index.ts';
import { validate } from '../../../shared/schemas/validator.ts';
import { SPEC_BY_NAME } from '../../../supervisor/config/describe-flag.ts';
import { statefulRunJsInput, statelessRunJsInput } from '../../../supervisor/mcp/run-js-tool.ts';

const LIMITS: ExecutionLimits = { defaultTimeoutSecs: 30, defaultHeapMb: 16, maxHeapMb: 512 };

test('the contract\'s numbers are the spec\'s', () => {
  assert.deepEqual(TIMEOUT_SECS, { min: 1, max: 300 });
  assert.equal(HEAP_MB_MIN, 1);
  assert.equal(HEAP_MB_FLOOR, 8);
});

test('resolveExecutionLimits: the request\'s limits, else the defaults; small heaps are raised to the floor', () => {
  assert.deepEqual(resolveExecutionLimits({}, LIMITS), { timeoutSecs: 30, heapMb: 16 });
  assert.deepEqual(resolveExecutionLimits({ executionTimeoutSecs: null, heapMemoryMaxMb: null }, LIMITS), { timeoutSecs: 30, heapMb: 16 });
  assert.deepEqual(resolveExecutionLimits({ executionTimeoutSecs: 300, heapMemoryMaxMb: 512 }, LIMITS), { timeoutSecs: 300, heapMb: 512 });
  assert.deepEqual(resolveExecutionLimits({ executionTimeoutSecs: 1, heapMemoryMaxMb: 1 }, LIMITS), { timeoutSecs: 1, heapMb: HEAP_MB_FLOOR });
});

test('resolveExecutionLimits: a timeout outside 1-300 or a heap above the ceiling is a 400 RunjsError', () => {
  for (const bad of [0, 301, 1.5, -1]) {
    assert.throws(() => resolveExecutionLimits({ executionTimeoutSecs: bad }, LIMITS), (e: unknown) => RunjsError.is(e, 'TIMEOUT_OUT_OF_RANGE')
      && e.status === 400 && e.message === `execution_timeout_secs must be an integer from 1 to 300, got ${bad}`);
  }
  for (const bad of [513, 2.5]) {
    assert.throws(() => resolveExecutionLimits({ heapMemoryMaxMb: bad }, LIMITS), (e: unknown) => RunjsError.is(e, 'HEAP_OUT_OF_RANGE')
      && e.status === 400 && e.message === `heap_memory_max_mb must be an integer from 8 to 512 (smaller values are raised to 8), got ${bad}`);
  }
});

test('maxHeapMb: the operator ceiling, and at most what QuickJS addresses with a heap store', () => {
  assert.equal(maxHeapMb(4096, false), 4096);
  assert.equal(maxHeapMb(4096, true), QUICKJS_MAX_HEAP_MB);
  assert.equal(maxHeapMb(512, true), 512);
});

test('the REST JSON Schema states the contract', () => {
  const props = SCHEMAS.ExecRequest['properties'] as Record<string, Record<string, unknown>>;
  assert.equal(props['execution_timeout_secs']!['minimum'], TIMEOUT_SECS.min);
  assert.equal(props['execution_timeout_secs']!['maximum'], TIMEOUT_SECS.max);
  assert.equal(props['heap_memory_max_mb']!['minimum'], HEAP_MB_MIN);
  const ok = (v: object) => validate('ExecRequest', { code: '1', ...v }).ok;
  assert.ok(ok({ execution_timeout_secs: TIMEOUT_SECS.min }) && ok({ execution_timeout_secs: TIMEOUT_SECS.max }) && ok({ heap_memory_max_mb: HEAP_MB_MIN }));
  assert.ok(!ok({ execution_timeout_secs: TIMEOUT_SECS.min - 1 }) && !ok({ execution_timeout_secs: TIMEOUT_SECS.max + 1 }) && !ok({ heap_memory_max_mb: HEAP_MB_MIN - 1 }));
});

test('the MCP run_js schema states the contract, with the server\'s ceiling', () => {
  for (const schema of [statefulRunJsInput(LIMITS), statelessRunJsInput(LIMITS)]) {
    const ok = (v: object) => schema.safeParse({ code: '1', ...v }).success;
    assert.ok(ok({ execution_timeout_secs: TIMEOUT_SECS.min }) && ok({ execution_timeout_secs: TIMEOUT_SECS.max }));
    assert.ok(ok({ heap_memory_max_mb: HEAP_MB_MIN }) && ok({ heap_memory_max_mb: LIMITS.maxHeapMb }));
    assert.ok(!ok({ execution_timeout_secs: TIMEOUT_SECS.min - 1 }) && !ok({ execution_timeout_secs: TIMEOUT_SECS.max + 1 }));
    assert.ok(!ok({ heap_memory_max_mb: HEAP_MB_MIN - 1 }) && !ok({ heap_memory_max_mb: LIMITS.maxHeapMb + 1 }));
  }
});

test('the flag table states the contract', () => {
  const timeout = SPEC_BY_NAME.get('execution-timeout')!;
  assert.deepEqual([timeout.min, timeout.max], [TIMEOUT_SECS.min, TIMEOUT_SECS.max]);
  const heapMax = SPEC_BY_NAME.get('heap-memory-max')!;
  assert.deepEqual([heapMax.min, heapMax.clampMin], [HEAP_MB_MIN, HEAP_MB_FLOOR]);
  assert.equal(SPEC_BY_NAME.get('heap-memory-ceiling')!.min, HEAP_MB_FLOOR);
});
