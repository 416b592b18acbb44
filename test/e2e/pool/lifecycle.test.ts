// Pool mechanics (issue 2 §2): cancel, kill after the grace period, worker death, respawn, queue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PoolRunner } from '../../helpers/pool-runner.ts';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';
import { RunjsError } from '../../../shared/errors.ts';

const CANCELLED = { status: 'cancelled', error: EXECUTION_ERRORS.CANCELLED };

test('cancel interrupts a busy loop and the worker serves the next run', async () => {
  // A generous grace period: on a loaded CI machine the interrupt must win without the kill.
  const r = new PoolRunner(1, 100, 2000);
  try {
    await r.pool.ready();
    let started!: () => void;
    const running = new Promise<void>((ok) => { started = ok; });
    const { handle, result } = r.start('console.log("started"); while (true) {}', { timeoutMs: 30_000 }, () => started());
    await running; // the script is inside its loop once its first line has arrived
    const pid = r.pool.pids()[0];
    handle.cancel();
    const res = await result;
    assert.deepEqual(res.outcome, CANCELLED);
    assert.equal(res.output, 'started\n');
    assert.deepEqual((await r.run('2')).outcome, { status: 'completed', result: '2' });
    assert.equal(r.pool.pids()[0], pid, 'an interruptible loop does not cost the worker');
  } finally {
    await r.close();
  }
});

test('cancel while queued removes the run without touching a worker', async () => {
  const r = new PoolRunner(1);
  try {
    await r.pool.ready();
    const first = r.start('await new Promise((ok) => setTimeout(ok, 200)); 1');
    const second = r.start('console.log("should not run"); 2');
    assert.equal(r.pool.queued, 1);
    second.handle.cancel();
    assert.equal(r.pool.queued, 0);
    assert.deepEqual((await second.result).outcome, CANCELLED);
    assert.equal((await second.result).output, '');
    assert.deepEqual((await first.result).outcome, { status: 'completed', result: '1' });
  } finally {
    await r.close();
  }
});

test('cancel after completion changes nothing', async () => {
  const r = new PoolRunner(1);
  try {
    await r.pool.ready();
    const { handle, result } = r.start('3');
    assert.deepEqual((await result).outcome, { status: 'completed', result: '3' });
    handle.cancel();
    assert.deepEqual(await handle.outcome, { status: 'completed', result: '3' });
  } finally {
    await r.close();
  }
});

test('a worker that cannot stop is killed after the grace period and replaced', async () => {
  // 50 ms grace: pbkdf2Sync blocks the worker's own thread inside one host op, so neither the
  // isolate interrupt nor the worker's recycle path can act — only the pool's SIGKILL timer.
  const r = new PoolRunner(1, 10, 50);
  try {
    await r.pool.ready();
    const pid = r.pool.pids()[0];
    assert.ok(pid !== undefined);
    let started!: () => void;
    const running = new Promise<void>((ok) => { started = ok; });
    // One long call: no gap between host calls in which the worker could take the cancel itself,
    // however late a loaded machine fires the pool's kill timer. (The most PBKDF2 one call may do,
    // 10M iterations of SHA-512: about 8 s on the 2-core development machine.)
    // The timer between the line and the call lets the worker send the line first (its output is
    // flushed on the next turn of its event loop, which the blocking call would otherwise hold).
    const code = 'import c from "node:crypto"; console.log("started"); await new Promise((r) => setTimeout(r, 0)); c.pbkdf2Sync("a", "b", 10_000_000, 64, "sha512")';
    const { handle, result } = r.start(code, { timeoutMs: 30_000 }, () => started());
    await running;
    // The line is sent just before the host call starts; a cancel that reached the worker in
    // between would be taken by the worker itself. Give the call time to begin.
    await new Promise((ok) => setTimeout(ok, 500));
    handle.cancel();
    assert.deepEqual((await result).outcome, CANCELLED);
    assert.deepEqual((await r.run('"after"')).outcome, { status: 'completed', result: '"after"' });
    const replacement = r.pool.pids()[0];
    assert.ok(replacement !== undefined);
    assert.notEqual(replacement, pid, 'the blocked worker was killed and replaced');
  } finally {
    await r.close();
  }
});

test('a worker killed from outside fails only its own execution, with the reason, and is respawned', async () => {
  const r = new PoolRunner(2);
  try {
    await r.pool.ready();
    const victim = r.start('while (true) {}', { timeoutMs: 30_000 });
    const other = r.start('await new Promise((ok) => setTimeout(ok, 300)); "other"');
    await new Promise((ok) => setTimeout(ok, 100));
    const pids = r.pool.pids();
    // Find the worker running the victim: kill the first, and check which run failed.
    process.kill(pids[0]!, 'SIGKILL');
    const results = await Promise.race([victim.result.then((v) => ['victim', v] as const), other.result.then((v) => ['other', v] as const)]);
    assert.equal(results[1].outcome.status, 'failed');
    assert.ok('error' in results[1].outcome && results[1].outcome.error === 'Worker process died during execution (killed by SIGKILL)');
    if (results[0] === 'victim') {
      assert.deepEqual((await other.result).outcome, { status: 'completed', result: '"other"' });
    } else {
      victim.handle.cancel();
    }
    await r.pool.ready();
    assert.notEqual(r.pool.pids()[0], pids[0]);
    assert.deepEqual((await r.run('5')).outcome, { status: 'completed', result: '5' });
  } finally {
    await r.close();
  }
});

test('executions beyond the cap wait in FIFO order; the timeout clock starts when the run starts', async () => {
  const r = new PoolRunner(1);
  try {
    await r.pool.ready();
    const order: string[] = [];
    // The first two sleep 1 s each (at least: a loaded machine only makes them longer); the third
    // is instant but may take only 1.5 s. It starts ≥ 2 s after submission, so it would time out
    // while queued if its clock started at submission; started when it runs, it has 1.5 s for
    // a trivial script.
    const runs = ['a', 'b', 'c'].map((name) => r.start(name === 'c' ? '"c"' : `await new Promise((ok) => setTimeout(ok, 1000)); "${name}"`, { timeoutMs: name === 'c' ? 1500 : 30_000 }));
    const names = await Promise.all(runs.map(async (x) => { const res = await x.result; order.push(res.outcome.status === 'completed' ? res.outcome.result : res.outcome.status); return res; }));
    assert.deepEqual(order, ['"a"', '"b"', '"c"']);
    assert.equal(names.length, 3);
  } finally {
    await r.close();
  }
});

test('the queue is bounded', async () => {
  const r = new PoolRunner(1, 1);
  try {
    await r.pool.ready();
    const a = r.start('await new Promise((ok) => setTimeout(ok, 100)); 1');
    const b = r.start('2');
    assert.throws(() => r.start('3'), (e: unknown) => e instanceof RunjsError && e.code === 'QUEUE_FULL' && e.status === 503 && e.message === 'Too many executions waiting: the queue holds at most 1 (see --max-queued-executions)');
    assert.equal((await a.result).outcome.status, 'completed');
    assert.equal((await b.result).outcome.status, 'completed');
  } finally {
    await r.close();
  }
});

test('runs are isolated: globals do not leak between executions', async () => {
  const r = new PoolRunner(1);
  try {
    await r.pool.ready();
    assert.deepEqual((await r.run('(globalThis as any).leak = 1; Object.prototype.polluted = 1; 1')).outcome, { status: 'completed', result: '1' });
    assert.deepEqual((await r.run('typeof (globalThis as any).leak + " " + typeof ({} as any).polluted')).outcome, { status: 'completed', result: '"undefined undefined"' });
  } finally {
    await r.close();
  }
});

test('a run goes to the idle worker that has been idle longest, not to the first one', async () => {
  const r = new PoolRunner(2);
  try {
    await r.pool.ready();
    // Replace worker 0: its successor is idle since it became ready, so worker 1 is idle longest.
    const old = r.pool.pids()[0]!;
    process.kill(old, 'SIGKILL');
    while (r.pool.pids()[0] === old) await new Promise((ok) => setTimeout(ok, 5));
    await r.pool.ready();
    const [w0, w1] = r.pool.pids() as [number, number];
    // Freeze both, submit, then kill worker 1 and let worker 0 go on: the run fails exactly when
    // it was sent to worker 1 (a first-idle pool would have picked worker 0 and completed it).
    process.kill(w0, 'SIGSTOP');
    process.kill(w1, 'SIGSTOP');
    const { result } = r.start('"where"');
    process.kill(w1, 'SIGKILL');
    process.kill(w0, 'SIGCONT');
    assert.deepEqual((await result).outcome, { status: 'failed', error: 'Worker process died during execution (killed by SIGKILL)' });
    assert.deepEqual((await r.run('"next"')).outcome, { status: 'completed', result: '"next"' });
  } finally {
    await r.close();
  }
});
