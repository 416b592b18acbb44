// Scripts aimed at the transpiler (worker/source/transpile.ts, source-limits.ts): each fails with
// its own `TypeScript parse error: …` text and the run after it, on the same worker (pool size
// 1), completes. Before the limits, a million `[` killed the worker's esbuild service and every
// later run on that worker failed with `The service is no longer running`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PoolRunner } from '../../helpers/pool-runner.ts';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';
import { MAX_INDENT_LEVELS } from '../../../worker/source/source-limits.ts';

let r: PoolRunner;
before(async () => { r = new PoolRunner(1); await r.pool.ready(); });
after(() => r.close());

const TOO_DEEP = 'TypeScript parse error: 1:1001: brackets, braces and parentheses nest deeper than 1000 levels (the limit for scripts)';
const NEXT = 'const n: number = 41; n + 1';

async function assertNextRunCompletes(engine: 'v8' | 'quickjs'): Promise<void> {
  assert.deepEqual((await r.run(NEXT, { engine })).outcome, { status: 'completed', result: '42' });
}

for (const engine of ['v8', 'quickjs'] as const) {
  test(`[${engine}] a million nested brackets fail the run, not the worker`, async () => {
    for (const open of ['[', '(', '{']) {
      assert.deepEqual((await r.run(open.repeat(1_000_000), { engine })).outcome, { status: 'failed', error: TOO_DEEP }, open);
      await assertNextRunCompletes(engine);
    }
  });

  test(`[${engine}] nesting at the limit runs`, async () => {
    const code = `const a = ${'['.repeat(999)}7${']'.repeat(999)}; let d = 0; for (let x: any = a; Array.isArray(x); x = x[0]) d++; d`;
    assert.deepEqual((await r.run(code, { engine })).outcome, { status: 'completed', result: '999' });
    const text = `const s = "${'('.repeat(5000)}"; s.length`;
    assert.deepEqual((await r.run(text, { engine })).outcome, { status: 'completed', result: '5000' });
  });
}

test('a script over 4 MiB fails with the size limit', async () => {
  const code = `// ${'x'.repeat(4 * 1024 * 1024)}\n1`;
  assert.deepEqual((await r.run(code)).outcome, {
    status: 'failed',
    error: `${EXECUTION_ERRORS.TYPESCRIPT_PREFIX}the script is ${code.length} bytes; scripts may be at most 4194304 bytes (4 MiB)`,
  });
  await assertNextRunCompletes('v8');
});

test('blocks esbuild would indent into gigabytes fail with the indentation limit', async () => {
  const code = `${'{'.repeat(1000)}${'}'.repeat(1000)}\n`.repeat(500);
  const res = await r.run(code);
  assert.equal(res.outcome.status, 'failed');
  assert.match((res.outcome as { error: string }).error, /^TypeScript parse error: \d+:\d+: the script nests too deeply for its length/);
  assert.ok((res.outcome as { error: string }).error.endsWith(`indented more than ${MAX_INDENT_LEVELS} levels in total (the limit for scripts); flatten deeply nested blocks that repeat`));
  await assertNextRunCompletes('v8');
});

test('a run that times out while its script is being transpiled ends, and the next run completes', async () => {
  // Within the limits, but esbuild takes about a second over it.
  const slow = `${'{'.repeat(300)}${'}'.repeat(300)}\n`.repeat(40);
  assert.deepEqual((await r.run(slow, { timeoutMs: 50 })).outcome, { status: 'timed_out', error: EXECUTION_ERRORS.TIMED_OUT });
  await assertNextRunCompletes('v8');
  await assertNextRunCompletes('quickjs');
});
