// A run with `fs` mounts the snapshot at /work, over REST and MCP, on a real server process with a
// directory store: the new tree is ExecutionInfo.fs (the input id when nothing was written), a
// failed run produces nothing, labels resolve at submission and never move on their own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { httpClient, ok, settle } from '../mcp/mcp-clients.ts';
import { api, openBackend, type Backend } from './fs-helpers.ts';

let backend: Backend;
let server: ServerProcess;
before(async () => {
  backend = await openBackend('dir');
  server = await startServer(backend.flags, { env: backend.env });
});
after(async () => {
  await server?.stop();
  await backend?.close();
});

const HEX = /^[0-9a-f]{64}$/;

async function exec(body: Record<string, unknown>): Promise<any> {
  const r = await api(server.base, 'POST', '/api/exec', body);
  assert.ok(r.status === 200 || r.status === 202, JSON.stringify(r));
  return finished(r.json.execution_id);
}

async function finished(id: string): Promise<any> {
  // As long as the longest execution timeout a test here sets (120 s): on a loaded machine the
  // 100k-file run takes tens of seconds, and its own timeout, not this loop, is what bounds it.
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    const r = await api(server.base, 'GET', `/api/executions/${id}`);
    if (r.json.status !== 'running') return r.json;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`execution ${id} did not finish`);
}

test('REST: a label mounts at /work; writes make a new tree; the label does not move', async () => {
  const t1 = await backend.commit({ 'a.txt': 'one\n', 'src/b.js': 'b' });
  assert.equal((await api(server.base, 'POST', '/api/fs/labels', { name: 'main', ca_id: t1 })).status, 200);
  const info = await exec({
    code: `const fs = require('fs'); const a = fs.readFileSync('/work/a.txt', 'utf8'); fs.writeFileSync('/work/a.txt', a + 'two\\n'); fs.mkdirSync('/work/new/dir', { recursive: true }); fs.writeFileSync('/work/new/dir/c.txt', 'c'); fs.rmSync('/work/src', { recursive: true }); fs.readdirSync('/work').join()`,
    fs: 'main',
  });
  assert.equal(info.status, 'completed', JSON.stringify(info));
  assert.equal(info.result, '"a.txt,new"');
  assert.match(info.fs, HEX);
  assert.notEqual(info.fs, t1);
  assert.equal(await backend.read(info.fs, 'a.txt'), 'one\ntwo\n');
  assert.equal(await backend.read(info.fs, 'new/dir/c.txt'), 'c');
  assert.equal(await backend.read(info.fs, 'src/b.js'), undefined);
  assert.deepEqual((await api(server.base, 'GET', '/api/fs/labels/main')).json, { label: 'main', ca_id: t1 });
  // Pushing the result stays explicit.
  assert.equal((await api(server.base, 'POST', '/api/fs/push', { ca_id: info.fs, label: 'main', expected: t1 })).json.status, 'advanced');
  const next = await exec({ code: `require('fs').readFileSync('/work/new/dir/c.txt', 'utf8')`, fs: 'main' });
  assert.equal(next.result, '"c"');
  assert.equal(next.fs, info.fs, 'nothing written: the same tree');
});

test('REST: an id mounts it; an unknown label mounts an empty tree; a failed run produces nothing', async () => {
  const t = await backend.commit({ 'x.txt': 'x' });
  const byId = await exec({ code: `require('fs').readFileSync('/work/x.txt', 'utf8')`, fs: t.toUpperCase() });
  assert.deepEqual([byId.status, byId.result, byId.fs], ['completed', '"x"', t]);
  const empty = await exec({ code: `const fs = require('fs'); const before = fs.readdirSync('/work').length; fs.writeFileSync('/work/f', 'f'); before`, fs: 'never-made' });
  assert.equal(empty.result, '0');
  assert.equal(await backend.read(empty.fs, 'f'), 'f');
  assert.equal((await api(server.base, 'GET', '/api/fs/labels/never-made')).status, 404);
  const fail = await exec({ code: `require('fs').writeFileSync('/work/x.txt', 'changed'); throw new Error('boom')`, fs: t });
  assert.equal(fail.status, 'failed');
  assert.equal(fail.fs, null);
  const noFs = await exec({ code: `require('fs').writeFileSync('/work/scratch', 's'); require('fs').readFileSync('/work/scratch', 'utf8')` });
  assert.deepEqual([noFs.status, noFs.result, noFs.fs], ['completed', '"s"', null]);
});

test('REST: bad fs values and missing snapshots', async () => {
  assert.deepEqual(await api(server.base, 'POST', '/api/exec', { code: '1', fs: '../x' }), { status: 400, json: { error: (await api(server.base, 'POST', '/api/fs/labels', { name: '../x', ca_id: 'a'.repeat(64) })).json.error } });
  const missing = 'd'.repeat(64);
  const info = await exec({ code: '1', fs: missing });
  assert.equal(info.status, 'failed');
  assert.equal(info.error, `cannot mount filesystem snapshot: snapshot ${missing} was not found in the filesystem store`);
  assert.equal(info.fs, null);
});

test('REST: a write over the cap fails with ENOSPC in the script', async () => {
  const info = await exec({ code: `let code = 'no'; try { require('fs').writeFileSync('/work/big', new Uint8Array(65 * 1024 * 1024)); } catch (e) { code = e.code } code`, fs: 'caps', heap_memory_max_mb: 256 });
  assert.deepEqual([info.status, info.result], ['completed', '"ENOSPC"']);
});

test('MCP: run_js with fs; ExecutionInfo.fs over REST', async () => {
  const t = await backend.commit({ 'm.txt': 'mcp' });
  const client = await httpClient(server.base);
  try {
    const started = ok(await client.callTool({ name: 'run_js', arguments: { code: `const fs = require('fs'); fs.appendFileSync('/work/m.txt', '!'); fs.readFileSync('/work/m.txt', 'utf8')`, fs: t } }));
    const info = await settle(client, started['execution_id'] as string);
    assert.equal(info['status'], 'completed');
    assert.equal(info['result'], '"mcp!"');
    const rest = await finished(started['execution_id'] as string);
    assert.match(rest.fs, HEX);
    assert.equal(await backend.read(rest.fs, 'm.txt'), 'mcp!');
  } finally {
    await client.close();
  }
});

test('sessions without a heap store: a run continues from the session\'s last output_fs and logs its own', async () => {
  const first = await exec({ code: `require('fs').writeFileSync('/work/notes.txt', 'first\\n')`, session: 'fs-s1' });
  assert.equal(first.status, 'completed', JSON.stringify(first));
  const second = await exec({ code: `const fs = require('fs'); fs.appendFileSync('/work/notes.txt', 'second\\n'); fs.readFileSync('/work/notes.txt', 'utf8')`, session: 'fs-s1' });
  assert.equal(second.result, JSON.stringify('first\nsecond\n'));
  const failedRun = await exec({ code: `require('fs').writeFileSync('/work/notes.txt', 'lost'); throw new Error('x')`, session: 'fs-s1' });
  assert.equal(failedRun.status, 'failed');
  const third = await exec({ code: `require('fs').readFileSync('/work/notes.txt', 'utf8')`, session: 'fs-s1' });
  assert.equal(third.result, JSON.stringify('first\nsecond\n'));
  const other = await exec({ code: `require('fs').readdirSync('/work').length`, session: 'fs-s2' });
  assert.equal(other.result, '0');
  const log = await api(server.base, 'GET', '/api/sessions/fs-s1/snapshots');
  assert.equal(log.status, 200, JSON.stringify(log.json));
  const entries = Array.isArray(log.json) ? log.json : log.json.snapshots;
  assert.deepEqual(entries.map((e: any) => [e.index, e.output_heap, e.output_fs]), [[0, null, first.fs], [1, null, second.fs], [2, null, third.fs]]);
  assert.equal(third.fs, second.fs);
  // An explicit fs wins over the session's snapshot.
  const t = await backend.commit({ 'other.txt': 'o' });
  const pinned = await exec({ code: `require('fs').readdirSync('/work').join()`, session: 'fs-s1', fs: t });
  assert.equal(pinned.result, '"other.txt"');
  assert.deepEqual((await api(server.base, 'GET', '/api/capabilities')).json, { filesystem: true, heap: false, sessions: true });
});

test('with a heap store too: heap and filesystem persist side by side in one session (QuickJS)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-fs-heap-'));
  const both = await startServer([...backend.flags, '--heap-store', 'dir', '--heap-dir', join(dir, 'heaps')], { env: { ...backend.env, TMPDIR: dir } });
  try {
    const run = async (body: Record<string, unknown>): Promise<any> => {
      const r = await api(both.base, 'POST', '/api/exec', body);
      assert.ok(r.status === 200 || r.status === 202, JSON.stringify(r));
      for (;;) {
        const info = await api(both.base, 'GET', `/api/executions/${r.json.execution_id}`);
        if (info.json.status !== 'running') return info.json;
        await new Promise((res) => setTimeout(res, 25));
      }
    };
    const a = await run({ code: `var counter = 1; require('fs').writeFileSync('/work/c', String(counter)); counter`, session: 'hs' });
    assert.equal(a.status, 'completed', JSON.stringify(a));
    const b = await run({ code: `counter++; require('fs').writeFileSync('/work/c', String(counter)); require('fs').readFileSync('/work/c', 'utf8')`, session: 'hs', heap: a.heap });
    assert.equal(b.result, '"2"');
    const log = (await api(both.base, 'GET', '/api/sessions/hs/snapshots')).json;
    const entries = Array.isArray(log) ? log : log.snapshots;
    assert.deepEqual(entries.map((e: any) => [e.output_heap, e.output_fs]), [[a.heap, a.fs], [b.heap, b.fs]]);
    assert.equal(await backend.read(b.fs, 'c'), '2');
  } finally {
    await both.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('session files over REST: read what runs wrote, write natively, and the next run sees it', async () => {
  const b = server.base;
  const s = 'files-s';
  await exec({ code: `const fs = require('fs'); fs.mkdirSync('/work/src', { recursive: true }); fs.writeFileSync('/work/src/a.txt', 'hello'); fs.symlinkSync('src/a.txt', '/work/link')`, session: s });
  const raw = async (method: string, path: string, body?: string): Promise<{ status: number; text: string }> => {
    const r = await fetch(`${b}${path}`, { method, ...(body === undefined ? {} : { body }) });
    return { status: r.status, text: await r.text() };
  };
  assert.deepEqual((await api(b, 'GET', `/api/sessions/${s}/dir/`)).json, { names: ['link', 'src'] });
  assert.deepEqual((await api(b, 'GET', `/api/sessions/${s}/dir/src`)).json, { names: ['a.txt'] });
  assert.deepEqual((await api(b, 'GET', `/api/sessions/${s}/entries/src/a.txt`)).json, { kind: 'file', mode: 0o100644, readonly: false, size: 5, modified_ms: null });
  assert.equal((await api(b, 'GET', `/api/sessions/${s}/entries/link?follow=false`)).json.kind, 'symlink');
  assert.equal((await api(b, 'GET', `/api/sessions/${s}/entries/link`)).json.kind, 'file');
  assert.deepEqual(await raw('GET', `/api/sessions/${s}/files/src/a.txt`), { status: 200, text: 'hello' });
  assert.deepEqual(await raw('GET', `/api/sessions/${s}/files/link?offset=1&max_bytes=3`), { status: 200, text: 'ell' });
  assert.deepEqual(await api(b, 'GET', `/api/sessions/${s}/files/nope.txt`), { status: 404, json: { error: "no such file or directory in the session's filesystem: /work/nope.txt" } });
  assert.equal((await api(b, 'GET', `/api/sessions/${s}/files/..%2F..%2Fetc%2Fpasswd`)).status, 404);
  assert.equal((await raw('PUT', `/api/sessions/${s}/files/src/a.txt?append=true`, ' world')).status, 204);
  assert.equal((await raw('PUT', `/api/sessions/${s}/files/notes/n.md`, '# n')).status, 204);
  assert.deepEqual((await api(b, 'POST', `/api/sessions/${s}/fs`, { op: 'exists', path: '/work/notes/n.md' })).json, { exists: true });
  assert.deepEqual((await api(b, 'POST', `/api/sessions/${s}/fs`, { op: 'readlink', path: 'link' })).json, { target: 'src/a.txt' });
  assert.deepEqual((await api(b, 'POST', `/api/sessions/${s}/fs`, { op: 'canonical', path: 'link' })).json, { path: '/work/src/a.txt' });
  assert.equal((await api(b, 'POST', `/api/sessions/${s}/fs`, { op: 'rename', path: 'notes', to: 'docs' })).status, 200);
  assert.deepEqual(await api(b, 'POST', `/api/sessions/${s}/fs`, { op: 'chmod', path: 'x' }), { status: 400, json: { error: "session fs: unknown operation 'chmod': expected mkdir, rename, exists, readlink or canonical" } });
  assert.deepEqual(await api(b, 'DELETE', `/api/sessions/${s}/files/src`), { status: 400, json: { error: 'directory not empty: /work/src (pass recursive=true)' } });
  const run = await exec({ code: `const fs = require('fs'); [fs.readFileSync('/work/src/a.txt', 'utf8'), fs.readdirSync('/work').join()].join('|')`, session: s });
  assert.equal(run.result, JSON.stringify('hello world|docs,link,src'));
  assert.equal((await raw('DELETE', `/api/sessions/${s}/files/src?recursive=true`)).status, 204);
  const log = (await api(b, 'GET', `/api/sessions/${s}/snapshots`)).json;
  assert.deepEqual(log.map((e: any) => e.code.startsWith('//') ? e.code : 'run'), ['run', '// append /work/src/a.txt', '// write /work/notes/n.md', '// rename /work/notes /work/docs', 'run', '// delete /work/src']);
  assert.deepEqual((await api(b, 'GET', `/api/sessions/${s}/dir/`)).json, { names: ['docs', 'link'] });
});

test('MCP: a session\'s runs share /work; fs_* session file tools read and write it', async () => {
  const client = await httpClient(server.base, { 'X-MCP-Session-Id': 'mcp-files' });
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of ['fs_list_dir', 'fs_stat', 'fs_read_file', 'fs_write_file', 'fs_delete', 'fs_session_op']) assert.ok(names.includes(n), n);
    const first = ok(await client.callTool({ name: 'run_js', arguments: { code: `require('fs').writeFileSync('/work/state.json', JSON.stringify({ n: 1 }))` } }));
    assert.equal((await settle(client, first['execution_id'] as string))['status'], 'completed');
    assert.deepEqual(ok(await client.callTool({ name: 'fs_read_file', arguments: { path: '/work/state.json' } })), { content: '{"n":1}', encoding: 'utf8', size: 7 });
    assert.deepEqual(ok(await client.callTool({ name: 'fs_list_dir', arguments: { path: '' } })), { names: ['state.json'] });
    assert.match(ok(await client.callTool({ name: 'fs_write_file', arguments: { path: 'extra.bin', content: Buffer.from([0xff, 0]).toString('base64'), encoding: 'base64' } }))['ca_id'] as string, HEX);
    assert.deepEqual(ok(await client.callTool({ name: 'fs_read_file', arguments: { path: 'extra.bin' } })), { content: '/wA=', encoding: 'base64', size: 2 });
    assert.deepEqual(ok(await client.callTool({ name: 'fs_session_op', arguments: { op: 'exists', path: 'nope' } })), { exists: false });
    const second = ok(await client.callTool({ name: 'run_js', arguments: { code: `require('fs').readdirSync('/work').join()` } }));
    assert.equal((await settle(client, second['execution_id'] as string))['result'], '"extra.bin,state.json"');
    const err = await client.callTool({ name: 'fs_read_file', arguments: { path: 'missing' } });
    assert.equal(err.isError, true);
  } finally {
    await client.close();
  }
});

test('REST: 100k files hit the entry cap with ENOSPC, and the run can still complete', async () => {
  const info = await exec({
    code: `const fs = require('fs'); let n = 0, code = 'none'; try { for (; n < 100_001; n++) fs.writeFileSync('/work/f' + n, ''); } catch (e) { code = e.code } [n, code].join()`,
    heap_memory_max_mb: 256, execution_timeout_secs: 120,
  });
  assert.deepEqual([info.status, info.result], ['completed', '"100000,ENOSPC"']);
});

test('REST: a 20 MiB file written by a run reaches the store (the result message is allowed its size)', async () => {
  const info = await exec({ code: `require('fs').writeFileSync('/work/big.bin', new Uint8Array(20 * 1024 * 1024).fill(7)); 'ok'`, fs: 'big-files', heap_memory_max_mb: 256 });
  assert.deepEqual([info.status, info.result], ['completed', '"ok"'], JSON.stringify(info));
  const entry = await (async () => { const r = await api(server.base, 'POST', '/api/fs/labels', { name: 'big-files', ca_id: info.fs }); return r.status; })();
  assert.equal(entry, 200);
  const next = await exec({ code: `const s = require('fs').statSync('/work/big.bin'); s.size`, fs: 'big-files', heap_memory_max_mb: 256 });
  assert.equal(next.result, String(20 * 1024 * 1024));
});
