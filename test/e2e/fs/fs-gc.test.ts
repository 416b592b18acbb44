// POST /api/fs/gc on a real server process, on a directory store and on a real s3rver: label
// heads, reflog entries and session snapshots survive with every byte readable, an unreachable
// tree is deleted, and a writer that keeps committing session files and pushing a label while
// the collection runs loses nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer } from '../server/server-process.ts';
import { api, openBackend } from './fs-helpers.ts';

async function put(base: string, session: string, path: string, text: string): Promise<number> {
  const res = await fetch(`${base}/api/sessions/${session}/files/${path}`, { method: 'PUT', body: text });
  await res.arrayBuffer();
  return res.status;
}

async function get(base: string, session: string, path: string): Promise<[number, string]> {
  const res = await fetch(`${base}/api/sessions/${session}/files/${path}`);
  return [res.status, await res.text()];
}

for (const name of ['dir', 's3'] as const) {
  test(`${name}: gc keeps what labels, reflogs and sessions reach, deletes the rest, and survives a concurrent writer`, async () => {
    const backend = await openBackend(name);
    const server = await startServer(backend.flags, { env: backend.env });
    try {
      const b = server.base;
      const k = await backend.commit({ 'k.txt': 'kept by the reflog\n' });
      const h = await backend.commit({ 'h.txt': 'the head\n', 'dir/x.txt': 'x\n' });
      const u = await backend.commit({ 'u.txt': 'nobody keeps me\n' });
      assert.equal((await api(b, 'POST', '/api/fs/push', { ca_id: k, label: 'main' })).status, 200);
      assert.equal((await api(b, 'POST', '/api/fs/push', { ca_id: h, label: 'main', expected: k })).status, 200);
      assert.equal(await put(b, 's1', 'notes.md', 'session notes\n'), 204);
      assert.equal((await api(b, 'POST', '/api/fs/push', { ca_id: h, label: 'live' })).status, 200);
      // Older than the collector's clock slack (and S3's whole-second times).
      await sleep(3500);

      // The writer: session file commits and label pushes, until the collection has finished.
      let done = false;
      let head = h;
      const written: string[] = [];
      const writer = (async () => {
        for (let i = 0; !done || i < 3; i++) {
          assert.equal(await put(b, 'w', `f${i}.txt`, `write ${i}\n`), 204);
          written.push(`f${i}.txt`);
          const next = await backend.commit({ [`live${i}.txt`]: `live ${i}\n` }, head);
          assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: next, label: 'live', expected: head }), { status: 200, json: { status: 'advanced', label: 'live', ca_id: next } });
          head = next;
        }
      })();
      const gc = await api(b, 'POST', '/api/fs/gc', { grace_secs: 0 });
      done = true;
      await writer;
      assert.equal(gc.status, 200, JSON.stringify(gc.json));
      // u's root and its one file: nothing else was unreachable and old.
      assert.deepEqual([gc.json.deleted, gc.json.missing, gc.json.dry_run, gc.json.grace_secs], [2, 0, false, 0]);

      assert.equal(await backend.read(k, 'k.txt'), 'kept by the reflog\n');
      assert.equal(await backend.read(h, 'dir/x.txt'), 'x\n');
      assert.deepEqual(await get(b, 's1', 'notes.md'), [200, 'session notes\n']);
      for (const [i, f] of written.entries()) assert.deepEqual(await get(b, 'w', f), [200, `write ${i}\n`]);
      const live = (await api(b, 'GET', '/api/fs/labels/live')).json.ca_id as string;
      assert.equal(live, head);
      for (let i = 0; i < written.length; i++) assert.equal(await backend.read(head, `live${i}.txt`), `live ${i}\n`);
      assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: u, label: 'gone' }), { status: 400, json: { error: `snapshot ${u} was not found in the filesystem store` } });

      // Nothing is left to collect; bad bodies are refused.
      assert.deepEqual((await api(b, 'POST', '/api/fs/gc', { grace_secs: 0, dry_run: true })).json.deleted, 0);
      assert.deepEqual(await api(b, 'POST', '/api/fs/gc', { grace_secs: -1 }), { status: 400, json: { error: "Invalid body: field 'grace_secs' must be >= 0, got -1" } });
      assert.deepEqual(await api(b, 'POST', '/api/fs/gc', ''), { status: 400, json: { error: 'Invalid body: the body is empty: send a JSON FsGcRequest' } });
    } finally {
      await server.stop();
      await backend.close();
    }
  });
}
