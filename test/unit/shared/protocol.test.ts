// The supervisor accepts only whole messages from a worker: a result's outcome is checked to the
// field, so a malformed one never reaches the execution store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isOutcome, isWorkerMessage } from '../../../shared/protocol.ts';

test('outcomes: each status with its string field', () => {
  assert.equal(isOutcome({ status: 'completed', result: '1' }), true);
  assert.equal(isOutcome({ status: 'failed', error: 'x' }), true);
  assert.equal(isOutcome({ status: 'timed_out', error: 'x' }), true);
  assert.equal(isOutcome({ status: 'cancelled', error: 'x' }), true);
});

test('outcomes: unknown status, missing or non-string fields are refused', () => {
  assert.equal(isOutcome({ status: 'running', result: '1' }), false);
  assert.equal(isOutcome({ status: 'completed' }), false);
  assert.equal(isOutcome({ status: 'completed', result: 1 }), false);
  assert.equal(isOutcome({ status: 'failed', result: 'x' }), false);
  assert.equal(isOutcome({ status: 'failed', error: { message: 'x' } }), false);
  assert.equal(isOutcome(null), false);
  assert.equal(isOutcome('completed'), false);
});

test('a result message carries a whole outcome', () => {
  assert.equal(isWorkerMessage({ type: 'result', runId: 'r', outcome: { status: 'completed', result: '' } }), true);
  assert.equal(isWorkerMessage({ type: 'result', runId: 'r', outcome: {} }), false);
  assert.equal(isWorkerMessage({ type: 'result', runId: 'r', outcome: { status: 'done', result: '' } }), false);
});
