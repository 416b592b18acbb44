// Two agents on one label, across two server processes that share the stores (a directory, and a
// real s3rver process): both see the same labels and trees; the second push is rejected with the
// head it raced, the agent merges (3-way, base = what it pulled) and pushes the result. The merged
// file is checked against `git merge-file`. Then the same flow through the MCP fs_* tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, startServerPair } from '../server/server-process.ts';
import { failed, httpClient, ok } from '../mcp/mcp-clients.ts';
import { api, edited, openBackend, TEXT } from './fs-helpers.ts';

function gitMerge(base: string, ours: string, theirs: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-fs-git-'));
  writeFileSync(join(dir, 'o'), ours);
  writeFileSync(join(dir, 'b'), base);
  writeFileSync(join(dir, 't'), theirs);
  return execFileSync('git', ['merge-file', '-p', join(dir, 'o'), join(dir, 'b'), join(dir, 't')], { encoding: 'utf8' });
}

for (const name of ['dir', 's3'] as const) {
  test(`${name}: two servers share labels and trees; two agents push to one label (409, merge, push)`, async () => {
    const backend = await openBackend(name);
    const [a, b] = await startServerPair([backend.flags, { env: backend.env }], [backend.flags, { env: backend.env }]);
    try {
      const h0 = await backend.commit({ 'src/main.ts': TEXT, 'README.md': 'readme\n' });
      assert.equal((await api(a.base, 'POST', '/api/fs/push', { ca_id: h0, label: 'main', message: 'init' })).status, 200);
      // Server b sees the label server a moved.
      assert.deepEqual(await api(b.base, 'GET', '/api/fs/labels/main'), { status: 200, json: { label: 'main', ca_id: h0 } });
      // Both agents pulled h0; each changes a different line.
      const oursText = edited(3, 'agent one');
      const theirsText = edited(33, 'agent two');
      const one = await backend.commit({ 'src/main.ts': oursText, 'one.txt': '1\n' }, h0);
      const two = await backend.commit({ 'src/main.ts': theirsText, 'two.txt': '2\n' }, h0);
      assert.deepEqual(await api(a.base, 'POST', '/api/fs/push', { ca_id: one, label: 'main', expected: h0 }), { status: 200, json: { status: 'advanced', label: 'main', ca_id: one } });
      assert.deepEqual(await api(b.base, 'POST', '/api/fs/push', { ca_id: two, label: 'main', expected: h0 }), { status: 409, json: { status: 'rejected', label: 'main', current: one } });
      // Agent two rebases: merges its tree with the head it raced (trees written by the test, read by server b).
      const merged = await api(b.base, 'POST', '/api/fs/merge', { ours: two, theirs: one, base: h0 });
      assert.equal(merged.json.status, 'merged', JSON.stringify(merged.json));
      const m = merged.json.ca_id as string;
      assert.deepEqual(await api(b.base, 'POST', '/api/fs/push', { ca_id: m, label: 'main', expected: one, message: 'merge' }), { status: 200, json: { status: 'advanced', label: 'main', ca_id: m } });
      assert.equal(await backend.read(m, 'src/main.ts'), gitMerge(TEXT, theirsText, oursText));
      assert.equal(await backend.read(m, 'one.txt'), '1\n');
      assert.equal(await backend.read(m, 'two.txt'), '2\n');
      assert.equal(await backend.read(m, 'README.md'), 'readme\n');
      const log = await api(a.base, 'GET', '/api/fs/labels/main/log');
      assert.deepEqual(log.json.log.map((e: any) => [e.op, e.from, e.to, e.message ?? null]), [['create', null, h0, 'init'], ['push', h0, one, null], ['push', one, m, 'merge']]);

      // The same race over MCP, on the two servers.
      const [ca, cb] = await Promise.all([httpClient(a.base), httpClient(b.base)]);
      try {
        const names = (await ca.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('fs_'));
        assert.deepEqual(names.sort(), ['fs_delete', 'fs_label', 'fs_list_dir', 'fs_log', 'fs_ls', 'fs_merge', 'fs_pull', 'fs_push', 'fs_read_file', 'fs_reset', 'fs_session_op', 'fs_stat', 'fs_write_file']);
        const head = ok(await cb.callTool({ name: 'fs_pull', arguments: { label: 'main' } }));
        assert.deepEqual(head, { label: 'main', ca_id: m });
        const x = await backend.commit({ 'x.txt': 'x\n' }, m);
        const y = await backend.commit({ 'y.txt': 'y\n' }, m);
        assert.deepEqual(ok(await ca.callTool({ name: 'fs_push', arguments: { ca_id: x, label: 'main', expected: m } })), { status: 'advanced', label: 'main', ca_id: x });
        const rejected = ok(await cb.callTool({ name: 'fs_push', arguments: { ca_id: y, label: 'main', expected: m } }));
        assert.deepEqual(rejected, { status: 'rejected', label: 'main', current: x });
        const mm = ok(await cb.callTool({ name: 'fs_merge', arguments: { ours: y, theirs: x, base: m } }));
        assert.equal(mm['status'], 'merged');
        assert.equal(ok(await cb.callTool({ name: 'fs_push', arguments: { ca_id: mm['ca_id'], label: 'main', expected: x } }))['status'], 'advanced');
        assert.equal(await backend.read(mm['ca_id'] as string, 'x.txt'), 'x\n');
        assert.equal(await backend.read(mm['ca_id'] as string, 'y.txt'), 'y\n');
        assert.deepEqual(ok(await ca.callTool({ name: 'fs_ls', arguments: {} })), { labels: [{ name: 'main', ca_id: mm['ca_id'] }] });
        const log2 = ok(await ca.callTool({ name: 'fs_log', arguments: { label: 'main', limit: 2 } }));
        assert.deepEqual((log2['log'] as any[]).map((e) => e.to), [x, mm['ca_id']]);
        assert.deepEqual(ok(await ca.callTool({ name: 'fs_label', arguments: { name: 'tag1', ca_id: h0, message: 'tag' } })), { label: 'tag1', ca_id: h0 });
        assert.deepEqual(ok(await ca.callTool({ name: 'fs_reset', arguments: { label: 'main', ca_id: h0 } })), { label: 'main', ca_id: h0 });
        // Tool errors are isError results with the same texts as REST.
        assert.deepEqual(failed(await ca.callTool({ name: 'fs_pull', arguments: { label: 'nope' } })), { error: 'unknown label: nope' });
        assert.deepEqual(failed(await ca.callTool({ name: 'fs_reset', arguments: { label: 'tag1', ca_id: x } })), { error: `CA id ${x} is not in the reflog for label 'tag1'; pass allow_unlogged to reset anyway` });
        assert.deepEqual(failed(await ca.callTool({ name: 'fs_push', arguments: { ca_id: x } })), { error: 'fs push requires a label unless detach is true' });
        assert.deepEqual(failed(await ca.callTool({ name: 'fs_merge', arguments: { ours: x, theirs: 'bad' } })), { error: 'invalid CA id: bad' });
        assert.deepEqual(failed(await ca.callTool({ name: 'fs_merge', arguments: { ours: x, theirs: y, prefer: 'both' } })), { error: "invalid prefer 'both': expected ours|theirs|none" });
        assert.deepEqual(failed(await ca.callTool({ name: 'fs_label', arguments: { name: '../etc', ca_id: x } })), {
          error: "invalid label name: ../etc: use 1 to 128 letters, digits, '.', '_', '-', '+' or '@', starting with a letter or digit, and not 64 hex digits (that is a CA id)",
        });
        assert.deepEqual(failed(await ca.callTool({ name: 'fs_pull', arguments: {} })), { error: 'Invalid arguments for fs_pull: label: is required' });
      } finally {
        await Promise.all([ca.close(), cb.close()]);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await backend.close();
    }
  });
}

test('without --fs-store the fs_* tools are not listed', async () => {
  const server = await startServer([]);
  const client = await httpClient(server.base);
  try {
    assert.deepEqual((await client.listTools()).tools.filter((t) => t.name.startsWith('fs_')), []);
  } finally {
    await client.close();
    await server.stop();
  }
});
