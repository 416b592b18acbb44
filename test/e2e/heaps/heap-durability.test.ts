// What a response reports is in the heap store: after `kill -9` of the server (no shutdown code
// runs), every heap key a client saw in a completed execution restores, verified, on a new
// server over the same store (docs/heap-snapshots.md, "Durability"). The kill lands while a
// fan-out's heaps are being written, several of them sharing a commit (group commit): the keys
// already reported are durable, whatever the commits still in flight were doing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../server/server-process.ts';
import { run } from './heap-helpers.ts';

/** Direct children of `pid` (the server's workers), from /proc. */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(' ').map(Number);
}

test('after kill -9 in the middle of a fan-out\'s commits, every reported heap key restores on a new server over the same store', async () => {
  const heapDir = mkdtempSync(join(tmpdir(), 'runjs-heap-durable-'));
  const args = ['--heap-store', 'dir', '--heap-dir', heapDir];
  try {
    const keys: string[] = [];
    const expected = [0, 1, 2, 3];
    const first = await startServer(args);
    try {
      let heap = (await run(first.base, { code: 'globalThis.counter = 0; counter' })).heap;
      keys.push(heap);
      for (let i = 1; i <= 3; i++) {
        const step = await run(first.base, { code: 'counter += 1', heap });
        assert.equal(step.value, i);
        heap = step.heap;
        keys.push(heap);
      }
      // A fan-out of 16 concurrent runs from the last key: once 4 have reported their heaps, the
      // others are running or committing (two commits at a time, the rest queued to share one).
      const fanned = new Map<string, number>();
      let reported!: () => void;
      const fourReported = new Promise<void>((resolve) => { reported = resolve; });
      const fanOut = Array.from({ length: 16 }, (_, k) => run(first.base, { code: `counter += ${10 * (k + 1)}`, heap }).then((r) => {
        assert.equal(r.value, 3 + 10 * (k + 1));
        fanned.set(r.heap, 3 + 10 * (k + 1));
        if (fanned.size === 4) reported();
      }, () => { /* cut off by the kill */ }));
      await Promise.race([fourReported, Promise.all(fanOut)]);
      const workers = childrenOf(first.proc.pid!);
      first.proc.kill('SIGKILL');
      await new Promise((resolve) => first.proc.once('exit', resolve));
      for (const pid of workers) { try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ } }
      await Promise.all(fanOut);
      for (const [key, value] of fanned) {
        keys.push(key);
        expected.push(value);
      }
    } finally {
      await first.stop();
    }
    const second = await startServer(args);
    try {
      const values = [];
      for (const heap of keys) values.push((await run(second.base, { code: 'counter', heap })).value);
      assert.ok(keys.length >= 8, `only ${keys.length - 4} of the fan-out's keys were reported before the kill`);
      assert.deepEqual(values, expected);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(heapDir, { recursive: true, force: true });
  }
});
