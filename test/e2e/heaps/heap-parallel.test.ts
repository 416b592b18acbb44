// No global lock on heaps: two runs resumed from the same key, and two runs on different heaps,
// execute at the same time. Proved without a clock: each run announces itself through an
// artifact and then waits for the other's; runs that were serialised would both wait until their
// timeout (the first would never see the second start).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { run } from './heap-helpers.ts';

let heapDir: string;
let s: ServerProcess;
before(async () => {
  heapDir = mkdtempSync(join(tmpdir(), 'runjs-heaps-par-'));
  s = await startServer(['--heap-store', 'dir', '--heap-dir', heapDir, '--max-concurrent-executions', '2']);
});
after(async () => {
  await s.stop();
  rmSync(heapDir, { recursive: true, force: true });
});

/** A run that marks `me` started, then waits (polling the artifact store) until `other` has started. */
function rendezvous(me: string, other: string): string {
  return [
    `await artifact(${JSON.stringify(me)}, 'text/plain', 'started');`,
    `while ((await artifact.get(${JSON.stringify(other)})) === null) await new Promise((ok) => setTimeout(ok, 10));`,
    `globalThis.seen = (globalThis.seen ?? 0) + 1; [${JSON.stringify(me)}, seen]`,
  ].join('\n');
}

test('two runs resumed from one heap key run at the same time, and each produces its own heap', async () => {
  const base = await run(s.base, { code: 'globalThis.seen = 10; "base"' });
  const opts = { heap: base.heap, execution_timeout_secs: 20 };
  const [x, y] = await Promise.all([
    run(s.base, { code: rendezvous('same-x', 'same-y'), ...opts }),
    run(s.base, { code: rendezvous('same-y', 'same-x'), ...opts }),
  ]);
  assert.deepEqual([x.value, y.value], [['same-x', 11], ['same-y', 11]]);
  assert.notEqual(x.heap, y.heap);
  assert.notEqual(x.heap, base.heap);
});

test('runs on two different heaps run at the same time', async () => {
  const [h1, h2] = await Promise.all([run(s.base, { code: '"one"' }), run(s.base, { code: 'globalThis.seen = 5; "two"' })]);
  const [x, y] = await Promise.all([
    run(s.base, { code: rendezvous('diff-x', 'diff-y'), heap: h1.heap, execution_timeout_secs: 20 }),
    run(s.base, { code: rendezvous('diff-y', 'diff-x'), heap: h2.heap, execution_timeout_secs: 20 }),
  ]);
  assert.deepEqual([x.value, y.value], [['diff-x', 1], ['diff-y', 6]]);
});
