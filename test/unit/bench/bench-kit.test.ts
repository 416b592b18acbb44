// The benchmark kit's statistics and selection helpers (scripts/bench/bench-kit.ts). Figures
// themselves are never asserted: benchmarks report, they do not fail a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  comparedMetric, median, medianRatio, metric, metricProblem, moduleSelected, quantile, roundFigure, roundRobin, selected, timeLoop,
} from '../../../scripts/bench/bench-kit.ts';

test('median: odd and even counts, unsorted input left untouched, NaN for none', () => {
  const input = [5, 1, 3];
  assert.equal(median(input), 3);
  assert.deepEqual(input, [5, 1, 3]);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([7]), 7);
  assert.ok(Number.isNaN(median([])));
});

test('quantile picks by nearest rank', () => {
  const v = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
  assert.equal(quantile(v, 0.5), 50);
  assert.equal(quantile(v, 0.9), 90);
  assert.equal(quantile(v, 0), 10);
  assert.equal(quantile(v, 1), 100);
});

test('medianRatio takes the median of per-round ratios, not the ratio of medians', () => {
  // Rounds 4/1, 4/4, 12/4 → ratios 4, 1, 3 → median 3, while the ratio of the medians is 4/4 = 1.
  assert.equal(medianRatio([4, 4, 12], [1, 4, 4]), 3);
  assert.equal(medianRatio([2, 6, 9], [1, 2, 3]), 3);
  assert.throws(() => medianRatio([1, 2], [1]), /2 subject samples but 1 peer/);
});

test('metric and comparedMetric build the report shape', () => {
  assert.deepEqual(metric('engine.x_ms', 'ms', [3, 1, 2]), { name: 'engine.x_ms', median: 2, unit: 'ms', runs: 3 });
  assert.deepEqual(comparedMetric('compute.a.v8_ms', 'ms', [110, 300, 120], 'plain_v8', [100, 100, 100]), {
    name: 'compute.a.v8_ms', median: 120, unit: 'ms', runs: 3, peer: { name: 'plain_v8', median: 100 }, ratio: 1.2,
  });
  assert.equal(metricProblem(metric('a', 'ms', [1])), undefined);
});

test('roundFigure keeps about four significant digits', () => {
  assert.equal(roundFigure(2.718281), 2.718);
  assert.equal(roundFigure(0.0123456), 0.01235);
  assert.equal(roundFigure(1234.567), 1235);
  assert.equal(roundFigure(0), 0);
});

test('roundRobin rotates the order, drops warm-up rounds and keeps samples aligned by round', async () => {
  const calls: string[] = [];
  const samples = await roundRobin({
    a: (round) => { calls.push(`a${round}`); return round * 10; },
    b: async (round) => { calls.push(`b${round}`); return round; },
  }, { warmup: 1, rounds: 3 });
  assert.deepEqual(calls, ['a0', 'b0', 'b1', 'a1', 'a2', 'b2', 'b3', 'a3']);
  assert.deepEqual(samples, { a: [10, 20, 30], b: [1, 2, 3] });
  assert.equal(medianRatio(samples.a, samples.b), 10);
});

test('timeLoop runs warm-up plus iterations and keeps only the iterations', async () => {
  let n = 0;
  const durations = await timeLoop(() => { n++; }, { warmup: 2, iterations: 5 });
  assert.equal(n, 7);
  assert.equal(durations.length, 5);
  assert.ok(durations.every((d) => d >= 0));
});

test('--only prefixes select metrics and modules', () => {
  assert.ok(selected('engine.trivial_run_ms', []));
  assert.ok(selected('engine.trivial_run_ms', ['engine.trivial']));
  assert.ok(!selected('engine.cancel_latency_ms', ['engine.trivial']));
  assert.ok(moduleSelected(['engine.'], ['engine.trivial']));
  assert.ok(moduleSelected(['engine.'], ['eng']));
  assert.ok(!moduleSelected(['compute.'], ['engine.trivial']));
  assert.ok(moduleSelected(['compute.'], []));
});

test('metricProblem rejects malformed metrics', () => {
  assert.match(metricProblem({ name: '', median: 1, unit: 'ms', runs: 1 }) ?? '', /name/);
  assert.match(metricProblem({ name: 'a', median: Number.NaN, unit: 'ms', runs: 1 }) ?? '', /median/);
  assert.match(metricProblem({ name: 'a', median: 1, unit: 'ms', runs: 1.5 }) ?? '', /runs/);
  assert.match(metricProblem({ name: 'a', median: 1, unit: 'ms', runs: 1, peer: { name: 'p' } }) ?? '', /peer/);
  assert.match(metricProblem({ name: 'a', median: 1, unit: 'ms', runs: 1, ratio: Infinity }) ?? '', /ratio/);
  assert.equal(metricProblem({ name: 'a', median: 1, unit: 'ms', runs: 1, peer: { name: 'p', median: 2 }, ratio: 0.5 }), undefined);
});
