// What a response acknowledges is in the database: after `kill -9` of the server (no shutdown
// code runs), every execution a client saw accepted is recorded, every one it saw finish is
// recorded finished with its result, and the retention bound was applied in the same commit as
// the outcome that crossed it (docs/architecture.md, "Durability").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openMetadataDb } from '../../../supervisor/stores/metadata-db.ts';
import { startServer } from '../server/server-process.ts';

const RETENTION = 3;

/** Direct children of `pid` (the server's workers), from /proc. */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(' ').map(Number);
}

async function post(base: string, code: string): Promise<string> {
  const res = await fetch(`${base}/api/exec`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
  assert.equal(res.status, 202);
  return ((await res.json()) as { execution_id: string }).execution_id;
}

test('after kill -9, the database holds every acknowledged execution and every reported outcome, pruned to the retention', async () => {
  const server = await startServer(['--execution-retention', String(RETENTION)]);
  try {
    const finished: { id: string; result: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await post(server.base, `console.log('line ${i}'); ${i} * 10`);
      const res = await fetch(`${server.base}/api/executions/${id}?wait_ms=30000`);
      const info = (await res.json()) as { status: string; result: string };
      assert.deepEqual([info.status, info.result], ['completed', String(i * 10)]);
      finished.push({ id, result: String(i * 10) });
    }
    // Accepted, still running when the server dies.
    const running = await post(server.base, 'await new Promise((resolve) => setTimeout(resolve, 600_000))');

    const workers = childrenOf(server.proc.pid!);
    server.proc.kill('SIGKILL');
    await new Promise((resolve) => server.proc.once('exit', resolve));
    for (const pid of workers) { try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ } }

    const db = openMetadataDb(server.dbDir);
    try {
      const rows = db.prepare('SELECT id, status, result FROM executions ORDER BY seq').all() as { id: string; status: string; result: string | null }[];
      assert.deepEqual(rows.map((r) => ({ ...r })), [
        ...finished.slice(-RETENTION).map(({ id, result }) => ({ id, status: 'completed', result })),
        { id: running, status: 'running', result: null },
      ]);
      // The pruned executions' output went with them; the retained ones' output is there.
      const outputs = db.prepare('SELECT execution_id, data FROM execution_output ORDER BY execution_id').all() as { execution_id: string; data: Uint8Array }[];
      assert.deepEqual(
        outputs.map((o) => [o.execution_id, Buffer.from(o.data).toString()]).sort(),
        finished.map((f, i) => [f.id, `line ${i}\n`]).slice(-RETENTION).sort(),
      );
    } finally {
      db.close();
    }
  } finally {
    await server.stop(); // removes the database directory
  }
});
