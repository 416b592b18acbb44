// Pins the texts the interface spec fixes: a red pin means the surface changed, and that
// must be deliberate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXECUTION_ERRORS, SERVICE_ERRORS, ServiceError, workerDiedError } from '../../../shared/errors.ts';

test('execution error texts are exactly the spec\'s', () => {
  assert.equal(EXECUTION_ERRORS.OUT_OF_MEMORY, 'Out of memory: V8 heap limit exceeded. Try increasing heap_memory_max_mb.');
  assert.equal(EXECUTION_ERRORS.TIMED_OUT, 'Execution timed out: script exceeded the time limit. Try increasing execution_timeout_secs.');
  assert.equal(EXECUTION_ERRORS.CANCELLED, 'Cancelled by user');
  assert.equal(EXECUTION_ERRORS.POLLING_TIMEOUT, 'Execution did not complete within polling timeout');
  assert.equal(EXECUTION_ERRORS.TYPESCRIPT_PREFIX, 'TypeScript parse error: ');
});

test('runjs\'s own texts', () => {
  assert.equal(workerDiedError('killed by SIGKILL'), 'Worker process died during execution (killed by SIGKILL)');
  assert.deepEqual(SERVICE_ERRORS.EXECUTION_NOT_FOUND('x'), { status: 404, message: "Execution 'x' not found" });
  assert.deepEqual(SERVICE_ERRORS.EXECUTION_NOT_RUNNING('x', 'completed'), { status: 400, message: "Execution 'x' is not running (status: completed)" });
  const e = new ServiceError(SERVICE_ERRORS.QUEUE_FULL(3));
  assert.equal(e.status, 503);
  assert.equal(e.message, 'Too many executions waiting: the queue holds at most 3 (see --max-queued-executions)');
});
