// The supervisor trusts no worker: a worker that ignores every cap (test/fixtures/workers/
// hostile-worker.ts speaks the protocol and breaks it on purpose) cannot make the pool hold more
// than its bounds. An oversized message is refused from its header and the worker is killed and
// replaced; output, result, error text, heap images and delegated ops are capped by the pool
// itself, with the same numbers the worker should have applied.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { WorkerPool, type Job } from '../../../supervisor/pool/worker-pool.ts';
import { OpRouter } from '../../../supervisor/pool/op-router.ts';
import { MAX_DELEGATED_IN_FLIGHT, OUTPUT_CUT_NOTICE } from '../../../supervisor/pool/supervisor-bounds.ts';
import { resultTooLargeError, MAX_ERROR_CHARS } from '../../../shared/outcome-limits.ts';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';
import type { Outcome } from '../../../shared/protocol.ts';

const ENTRY = fileURLToPath(new URL('../../fixtures/workers/hostile-worker.ts', import.meta.url));
const MiB = 1024 * 1024;

let pool: WorkerPool;
const logs: string[] = [];
/** Delegated ops the route holds until the test releases them. */
let held: (() => void)[] = [];
const releaseHeld = (): void => { for (const r of held.splice(0)) r(); };

before(async () => {
  const ops = new OpRouter([{
    'test.hold': { unavailable: 'unavailable', serve: () => new Promise((r) => held.push(() => r('ok'))) },
    'test.echo': { unavailable: 'unavailable', serve: (args) => Promise.resolve(args) },
  }], (l) => logs.push(l));
  pool = new WorkerPool({ size: 1, maxQueued: 10, log: (l) => logs.push(l), workerEntry: ENTRY, ops });
  await pool.ready();
});
after(() => pool.close());

/** Waits until the worker that had `pid` has been replaced by a ready one. */
async function replaced(pid: number | undefined): Promise<void> {
  while (pool.pids()[0] === pid) await new Promise((r) => setTimeout(r, 5));
  await pool.ready();
}

async function run(code: string, extra: Partial<Job> = {}): Promise<{ outcome: Outcome; output: string }> {
  let output = '';
  const handle = pool.submit({
    code, engine: 'v8', heapMemoryMaxMb: 8, timeoutMs: 30_000, maxOutputBytes: MiB,
    onOutput: (d) => { output += d; if (d === 'sent-all') releaseHeld(); }, ...extra,
  });
  return { outcome: await handle.outcome, output };
}

test('a message announced larger than the bound is refused from its header: the run fails, the worker is replaced, the supervisor never holds it', async () => {
  const pid = pool.pids()[0];
  const rssBefore = process.memoryUsage.rss();
  const { outcome } = await run('huge-frame');
  assert.equal(outcome.status, 'failed');
  assert.match((outcome as { error: string }).error, /^Worker process was stopped: it broke the supervisor protocol \(a message of 1073741824 bytes was announced, more than the \d+ bytes allowed now\)$/);
  // 256 MiB were streamed after the header; none of it was buffered.
  assert.ok(process.memoryUsage.rss() - rssBefore < 64 * MiB, `supervisor grew by ${(process.memoryUsage.rss() - rssBefore) / MiB} MiB`);
  await replaced(pid);
  assert.ok(logs.some((l) => l.startsWith(`runjs: worker ${pid} broke the protocol (a message of 1073741824 bytes was announced`)), logs.join('\n'));
  assert.deepEqual((await run('still-serving')).outcome, { status: 'completed', result: '"still-serving"' });
});

test('output beyond the per-run cap is cut by the supervisor with one notice', async () => {
  const { outcome, output } = await run('output-flood');
  assert.deepEqual(outcome, { status: 'completed', result: '1' });
  // A 1 MiB cap plus the worker's notice allowance (1 KiB): one 1 MiB chunk fits, the next is cut.
  assert.equal(output, `${'y'.repeat(MiB)}${OUTPUT_CUT_NOTICE}`);
});

test('output sent with the result comes after the earlier output and is held to the same cap', async () => {
  const small = await run('output-in-result');
  assert.deepEqual(small, { outcome: { status: 'completed', result: '3' }, output: 'first,last' });
  const flood = await run('output-in-result-flood');
  assert.deepEqual(flood.outcome, { status: 'completed', result: '4' });
  assert.equal(flood.output, `${'a'.repeat(MiB)}${OUTPUT_CUT_NOTICE}`);
});

test('many small messages are all read, in order', async () => {
  const { outcome, output } = await run('many-small-messages');
  assert.deepEqual(outcome, { status: 'completed', result: '2' });
  assert.equal(output, 'x'.repeat(20_000));
});

test('a result over 1 MiB and an error text over 64 Ki characters are capped by the supervisor', async () => {
  const big = await run('big-result');
  assert.deepEqual(big.outcome, { status: 'failed', error: resultTooLargeError(3 * MiB + 2) });
  const err = await run('big-error');
  assert.equal(err.outcome.status, 'failed');
  assert.equal((err.outcome as { error: string }).error, `${'e'.repeat(MAX_ERROR_CHARS)}… [runjs] error text truncated: ${MiB - MAX_ERROR_CHARS} more characters`);
});

test('a heap image the run did not ask for fails the run', async () => {
  assert.deepEqual((await run('unasked-image')).outcome, { status: 'failed', error: 'runjs internal error: the worker sent a heap image this execution did not ask for' });
});

test('messages of no known shape, or that cannot be decoded, stop the worker', async () => {
  let pid = pool.pids()[0];
  assert.deepEqual((await run('unknown-shape')).outcome, { status: 'failed', error: EXECUTION_ERRORS.WORKER_PROTOCOL('a message of no known shape') });
  await replaced(pid);
  pid = pool.pids()[0];
  const bad = await run('undecodable');
  assert.equal(bad.outcome.status, 'failed');
  assert.match((bad.outcome as { error: string }).error, /^Worker process was stopped: it broke the supervisor protocol \(a message could not be decoded \(.+\)\)$/);
  await replaced(pid);
  assert.deepEqual((await run('after')).outcome, { status: 'completed', result: '"after"' });
});

test('an op served after its run ended is not sent to the worker (nobody waits for it; a large answer would only queue copies on the pipe)', async () => {
  assert.deepEqual((await run('op-after-end')).outcome, { status: 'completed', result: '"ended"' });
  releaseHeld();
  assert.deepEqual((await run('late-answers')).outcome, { status: 'completed', result: '[]' });
});

test('the object pipe serves only the running job\'s own mount, and a malformed request stops the worker', async () => {
  const asked: string[] = [];
  const readObject = async (id: string): Promise<Uint8Array> => { asked.push(id); throw new Error(`object ${id} is not in this run's filesystem snapshot`); };
  const foreign = await run('object-foreign', { mount: { entries: [], limits: { maxEntries: 10, maxWriteBytes: 10 } }, readObject });
  assert.deepEqual(foreign.outcome, { status: 'completed', result: JSON.stringify([
    { ok: false, text: 'runjs: the run has ended or mounts no filesystem snapshot' },
    { ok: false, text: `object ${'b'.repeat(64)} is not in this run's filesystem snapshot` },
  ]) });
  assert.deepEqual(asked, ['b'.repeat(64)], 'another run\'s request never reaches the store');
  const pid = pool.pids()[0];
  assert.deepEqual((await run('object-malformed')).outcome, { status: 'failed', error: EXECUTION_ERRORS.WORKER_PROTOCOL('a malformed object request') });
  await replaced(pid);
});

test('delegated ops beyond the in-flight bound are refused at once, not queued in the supervisor', async () => {
  const { outcome } = await run('op-flood');
  assert.equal(outcome.status, 'completed');
  assert.deepEqual(JSON.parse((outcome as { result: string }).result), {
    served: MAX_DELEGATED_IN_FLIGHT,
    refused: 40 - MAX_DELEGATED_IN_FLIGHT,
    text: `runjs: more than ${MAX_DELEGATED_IN_FLIGHT} host operations are waiting for the server at once; await earlier ones first`,
  });
});
