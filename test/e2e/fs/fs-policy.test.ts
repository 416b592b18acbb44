// Policies on the supervisor's filesystem operations, on a real server process: the fs_snapshot
// category on label operations (a JavaScript hook that reads its allow-list through the `fs`
// capability) and on a run's mount (`pull`), and the filesystem category on the session file
// routes, over REST (403 with the reference's texts) and MCP (isError with the same texts).
// Every decision is in the server log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { failed, httpClient, ok } from '../mcp/mcp-clients.ts';
import { api, openBackend, type Backend } from './fs-helpers.ts';

let backend: Backend;
let server: ServerProcess;
let snapUrl: string;
let filesUrl: string;
before(async () => {
  backend = await openBackend('dir');
  const hooks = mkdtempSync(join(tmpdir(), 'runjs-fs-policy-'));
  writeFileSync(join(hooks, 'protected.json'), JSON.stringify({ protected: ['prod'] }));
  writeFileSync(join(hooks, 'snap.js'), `export default function (input) {
    const { protected: locked } = JSON.parse(fs.readFileSync('protected.json', 'utf8'));
    if (input.op === 'gc') return { allow: false, reason: 'gc is for operators' };
    if (input.label === 'broken') throw new Error('boom');
    if (input.op === 'pull') return input.label !== 'secret';
    if (input.label !== null && locked.includes(input.label)) return { allow: false, reason: 'label ' + input.label + ' is protected' };
    return true;
  }`);
  writeFileSync(join(hooks, 'files.js'), `export default function (input) {
    if (input.path === '/work/broken') throw new Error('boom');
    const hit = [input.path, input.destination].some((p) => p !== undefined && p.startsWith('/work/private'));
    return hit ? { allow: false, reason: 'private files' } : true;
  }`);
  snapUrl = pathToFileURL(join(hooks, 'snap.js')).href;
  filesUrl = pathToFileURL(join(hooks, 'files.js')).href;
  const policies = {
    fs_snapshot: { policies: [{ url: snapUrl, capabilities: ['fs'] }] },
    filesystem: { policies: [{ url: filesUrl }] },
  };
  server = await startServer([...backend.flags, '--policies-json', JSON.stringify(policies)], { env: backend.env });
});
after(async () => {
  await server?.stop();
  await backend?.close();
});

const denied = (op: string, label: string | null, id: string | null, reason?: string): string =>
  `fs_snapshot ${op} denied by policy (label=${label === null ? 'None' : `Some("${label}")`}, ca_id=${id === null ? 'None' : `Some("${id}")`})${reason === undefined ? '' : `: ${reason}`}`;

async function settled(id: string): Promise<Record<string, unknown>> {
  for (;;) {
    const r = await api(server.base, 'GET', `/api/executions/${id}`);
    if (r.json.status !== 'running' && r.json.status !== 'queued') return r.json;
    await sleep(50);
  }
}

test('fs_snapshot decides push, label, reset, gc and a mount\'s pull; merge and other labels pass', async () => {
  const b = server.base;
  const t = await backend.commit({ 'a.txt': 'a\n' });
  const t2 = await backend.commit({ 'b.txt': 'b\n' });
  const reason = 'label prod is protected';
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t, label: 'prod' }), { status: 403, json: { error: denied('push', 'prod', t, reason) } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/labels', { name: 'prod', ca_id: t }), { status: 403, json: { error: denied('label', 'prod', t, reason) } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/reset', { label: 'prod', ca_id: t, allow_unlogged: true }), { status: 403, json: { error: denied('reset', 'prod', t, reason) } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/gc', {}), { status: 403, json: { error: denied('gc', null, null, 'gc is for operators') } });
  // A source that fails refuses the operation (never a silent allow).
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t, label: 'broken' }), { status: 400, json: { error: `fs_snapshot policy error: fs_snapshot policy failed: ${snapUrl}: threw: boom` } });
  assert.deepEqual(await api(b, 'GET', '/api/fs/labels'), { status: 200, json: { labels: [] } });
  // A detached push moves nothing and is not decided; other labels pass.
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t, detach: true }), { status: 200, json: { status: 'detached', ca_id: t } });
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t, label: 'dev' }), { status: 200, json: { status: 'advanced', label: 'dev', ca_id: t } });
  assert.equal((await api(b, 'POST', '/api/fs/merge', { ours: t, theirs: t2 })).json.status, 'merged');
  assert.deepEqual(await api(b, 'POST', '/api/fs/push', { ca_id: t, label: 'secret' }), { status: 200, json: { status: 'advanced', label: 'secret', ca_id: t } });

  // A run names a snapshot: `pull` is decided when it is mounted.
  const read = 'console.log((await require("fs").promises.readFile("/work/a.txt", "utf8")).trim())';
  const denyRun = await api(b, 'POST', '/api/exec', { code: read, fs: 'secret' });
  assert.equal(denyRun.status, 202);
  const bad = await settled(denyRun.json.execution_id);
  assert.deepEqual([bad['status'], bad['error']], ['failed', `cannot mount filesystem snapshot: ${denied('pull', 'secret', t)}`]);
  const okRun = await settled((await api(b, 'POST', '/api/exec', { code: read, fs: 'dev' })).json.execution_id);
  // It read /work/a.txt and wrote nothing: the snapshot it mounted comes back.
  assert.deepEqual([okRun['status'], okRun['fs']], ['completed', t], JSON.stringify(okRun));

  const client = await httpClient(b);
  try {
    assert.deepEqual(failed(await client.callTool({ name: 'fs_push', arguments: { ca_id: t, label: 'prod' } })), { error: denied('push', 'prod', t, reason) });
    assert.deepEqual(failed(await client.callTool({ name: 'fs_label', arguments: { name: 'prod', ca_id: t } })), { error: denied('label', 'prod', t, reason) });
    assert.deepEqual(ok(await client.callTool({ name: 'fs_push', arguments: { ca_id: t2, label: 'dev', expected: t } })), { status: 'advanced', label: 'dev', ca_id: t2 });
  } finally {
    await client.close();
  }
  // Every decision is in the server log.
  const decisions = server.stderr().split('\n').filter((l) => l.startsWith('runjs: policy decision: ')).map((l) => JSON.parse(l.slice('runjs: policy decision: '.length)));
  const push = decisions.find((d) => d.category === 'fs_snapshot' && d.input.op === 'push' && d.input.label === 'prod');
  assert.deepEqual([push?.verdict, push?.reason], ['deny', reason]);
});

test('the filesystem policy decides the session file routes (REST 403, MCP isError)', async () => {
  const b = server.base;
  const req = async (method: string, path: string, body?: string): Promise<[number, string]> => {
    const res = await fetch(`${b}/api/sessions/s1/${path}`, { method, ...(body === undefined ? {} : { body }) });
    return [res.status, await res.text()];
  };
  const err = (op: string, path: string): string => JSON.stringify({ error: `fs.${op} denied by policy: ${path} is not allowed: private files` });
  assert.deepEqual(await req('PUT', 'files/notes.md', 'hello\n'), [204, '']);
  assert.deepEqual(await req('PUT', 'files/private/a.txt', 'x'), [403, err('writeFile', '/work/private/a.txt')]);
  assert.deepEqual(await req('PUT', 'files/private/a.txt?append=true', 'x'), [403, err('appendFile', '/work/private/a.txt')]);
  assert.deepEqual(await req('GET', 'files/notes.md'), [200, 'hello\n']);
  assert.deepEqual(await req('GET', 'files/private/a.txt'), [403, err('readFile', '/work/private/a.txt')]);
  assert.deepEqual(await req('GET', 'dir/private'), [403, err('readdir', '/work/private')]);
  assert.deepEqual(await req('GET', 'entries/private/a.txt?follow=false'), [403, err('lstat', '/work/private/a.txt')]);
  assert.deepEqual(await req('DELETE', 'files/private?recursive=true'), [403, err('rm', '/work/private')]);
  const op = async (body: unknown): Promise<[number, string]> => {
    const res = await fetch(`${b}/api/sessions/s1/fs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return [res.status, await res.text()];
  };
  assert.deepEqual(await op({ op: 'rename', path: 'notes.md', to: 'private/n.md' }), [403, err('rename', '/work/notes.md')]);
  assert.deepEqual(await op({ op: 'exists', path: 'private/../private/x' }), [403, err('exists', '/work/private/x')]);
  assert.deepEqual(await op({ op: 'exists', path: 'notes.md' }), [200, JSON.stringify({ exists: true })]);
  assert.deepEqual(await req('PUT', 'files/broken', 'x'), [500, JSON.stringify({ error: `filesystem policy failed: ${filesUrl}: threw: boom` })]);
  const client = await httpClient(b);
  try {
    assert.deepEqual(failed(await client.callTool({ name: 'fs_write_file', arguments: { session: 's1', path: '/work/private/b.txt', content: 'x' } })),
      { error: 'fs.writeFile denied by policy: /work/private/b.txt is not allowed: private files' });
    assert.deepEqual(failed(await client.callTool({ name: 'fs_read_file', arguments: { session: 's1', path: 'private/a.txt' } })),
      { error: 'fs.readFile denied by policy: /work/private/a.txt is not allowed: private files' });
    assert.equal(typeof ok(await client.callTool({ name: 'fs_write_file', arguments: { session: 's1', path: 'public.txt', content: 'x' } }))['ca_id'], 'string');
  } finally {
    await client.close();
  }
  assert.deepEqual(await req('GET', 'files/public.txt'), [200, 'x']);
});
