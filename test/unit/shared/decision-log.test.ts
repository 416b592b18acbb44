// The decision log's bounds and shape check, as both the worker and the supervisor's pool apply them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capDecisionLog, isDecisionLog, MAX_DECISION_LOG_BYTES, MAX_DECISIONS, type DecisionEntry } from '../../../shared/decision-log.ts';
import { isWorkerMessage } from '../../../shared/protocol.ts';

const entry = (seq: number, input: unknown = {}): DecisionEntry => ({
  seq, at: '2025-01-01T00:00:00.000Z', category: 'fetch', phase: 'decide', configured: true, input,
  steps: [{ stage: 'policy', source: 'http://opa', verdict: 'allow', ms: 0.1 }], verdict: 'allow', ms: 0.2,
});

test('capDecisionLog keeps entries in order within 1000 entries and 256 KiB; the rest count as dropped', () => {
  const many = { entries: Array.from({ length: MAX_DECISIONS + 7 }, (_v, i) => entry(i + 1)), dropped: 3 };
  const capped = capDecisionLog(many);
  assert.equal(capped.entries.length, MAX_DECISIONS);
  assert.equal(capped.dropped, 10);
  const big = { entries: Array.from({ length: 100 }, (_v, i) => entry(i + 1, 'x'.repeat(4000))), dropped: 0 };
  const cut = capDecisionLog(big);
  assert.ok(JSON.stringify(cut.entries).length <= MAX_DECISION_LOG_BYTES + cut.entries.length);
  assert.equal(cut.entries.length + cut.dropped, 100);
  assert.ok(cut.entries.length < 100 && cut.entries.length > 50);
  const small = { entries: [entry(1)], dropped: 0 };
  assert.equal(capDecisionLog(small), small);
});

test('the protocol guard refuses a malformed decision log on a result message', () => {
  const result = { type: 'result', runId: 'r', outcome: { status: 'completed', result: '' } };
  assert.ok(isWorkerMessage({ ...result, decisions: { entries: [entry(1)], dropped: 0 } }));
  assert.ok(isDecisionLog({ entries: [], dropped: 0 }));
  for (const decisions of [[], { entries: [{ ...entry(1), verdict: 'maybe' }], dropped: 0 }, { entries: [], dropped: -1 },
    { entries: [{ ...entry(1), steps: [{ stage: 'x' }] }], dropped: 0 }, { entries: Array.from({ length: 4001 }, (_v, i) => entry(i)), dropped: 0 }]) {
    assert.equal(isWorkerMessage({ ...result, decisions }), false, JSON.stringify(decisions).slice(0, 80));
  }
});

test('egress counts: kept by capDecisionLog, shape-checked by the guard (categories, three non-negative integers)', () => {
  const egress = { fetch: { requests: 2, sent_bytes: 10, received_bytes: 300 } };
  const many = Array.from({ length: MAX_DECISIONS + 1 }, (_, i) => entry(i + 1));
  assert.deepEqual(capDecisionLog({ entries: many, dropped: 0, egress }).egress, egress);
  assert.ok(isDecisionLog({ entries: [], dropped: 0, egress }));
  assert.ok(!isDecisionLog({ entries: [], dropped: 0, egress: { fetch: { requests: -1, sent_bytes: 0, received_bytes: 0 } } }));
  assert.ok(!isDecisionLog({ entries: [], dropped: 0, egress: { fetch: { requests: 1, sent_bytes: 0 } } }));
  assert.ok(!isDecisionLog({ entries: [], dropped: 0, egress: { fetch: { requests: 1, sent_bytes: 0, received_bytes: 0, extra: 1 } } }));
  assert.ok(!isDecisionLog({ entries: [], dropped: 0, egress: { 'Not A Category!': { requests: 1, sent_bytes: 0, received_bytes: 0 } } }));
  assert.ok(!isDecisionLog({ entries: [], dropped: 0, egress: [] }));
});
