// What a response reports is in the heap store: after `kill -9` of the server (no shutdown code
// runs), every heap key a client saw in a completed execution restores, verified, on a new
// server over the same store (docs/heap-snapshots.md, "Durability").
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

test('after kill -9, every reported heap key restores on a new server over the same store', async () => {
  const heapDir = mkdtempSync(join(tmpdir(), 'runjs-heap-durable-'));
  const args = ['--heap-store', 'dir', '--heap-dir', heapDir];
  try {
    const keys: string[] = [];
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
      const workers = childrenOf(first.proc.pid!);
      first.proc.kill('SIGKILL');
      await new Promise((resolve) => first.proc.once('exit', resolve));
      for (const pid of workers) { try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ } }
    } finally {
      await first.stop();
    }
    const second = await startServer(args);
    try {
      const values = [];
      for (const heap of keys) values.push((await run(second.base, { code: 'counter', heap })).value);
      assert.deepEqual(values, [0, 1, 2, 3]);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(heapDir, { recursive: true, force: true });
  }
});
