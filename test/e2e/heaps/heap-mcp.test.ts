// Heap persistence over MCP (real server process, Streamable HTTP, dir store): run_js heap and
// tags, the heap-tag tools, the session tools with the X-MCP-Session-Id session, tool errors for
// bad keys, and --session-fork-from at startup.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, runOnce, type ServerProcess } from '../server/server-process.ts';
import { failed, httpClient, ok, settle } from '../mcp/mcp-clients.ts';
import { defaultInstructions, defaultRunJsDescription, HEAP_INSTRUCTIONS } from '../../../supervisor/mcp/mcp-texts.ts';

// The default --heap-memory-ceiling (1024) is below the 2048 QuickJS addresses, so it applies to both engines.
const LIMITS = { defaultTimeoutSecs: 30, defaultHeapMb: 8, maxHeapMb: 1024 };

let heapDir: string;
let dbDir: string;
let server: ServerProcess;
let client: Client;
before(async () => {
  heapDir = mkdtempSync(join(tmpdir(), 'runjs-heaps-mcp-'));
  dbDir = mkdtempSync(join(tmpdir(), 'runjs-db-mcp-'));
  server = await startServer(['--heap-store', 'dir', '--heap-dir', heapDir], { dbDir });
  client = await httpClient(server.base, { 'X-MCP-Session-Id': 'agent-1' });
});
after(async () => {
  await client.close();
  await server.stop();
  rmSync(heapDir, { recursive: true, force: true });
  rmSync(dbDir, { recursive: true, force: true });
});

async function runJs(c: Client, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { execution_id } = ok(await c.callTool({ name: 'run_js', arguments: args }));
  return settle(c, String(execution_id));
}

test('the heap and session tools are listed with a heap store', async () => {
  const names = (await client.listTools()).tools.map((t) => t.name);
  for (const n of ['get_heap_tags', 'set_heap_tags', 'delete_heap_tags', 'query_heaps_by_tags', 'list_sessions', 'list_session_snapshots']) {
    assert.ok(names.includes(n), n);
  }
});

test('heap-mode texts: the instructions and run_js say what persists and how to continue', async () => {
  const instructions = client.getInstructions() ?? '';
  assert.equal(instructions, defaultInstructions('stateful', 'streamable-http', LIMITS, true));
  assert.ok(instructions.includes(HEAP_INSTRUCTIONS));
  assert.ok(!instructions.includes('do not persist'), instructions);
  assert.match(instructions, /get_execution returns `heap`/);
  assert.match(instructions, /Top-level declarations \(let, const, var, function, class\) and globalThis properties persist/);
  assert.match(instructions, /list_session_snapshots/);
  const runJs = (await client.listTools()).tools.find((t) => t.name === 'run_js')!;
  assert.equal(runJs.description, defaultRunJsDescription('stateful', LIMITS, true));
  assert.match(runJs.description!, /pass it as `heap` to continue from there/);
  assert.match(runJs.description!, /WebAssembly is not available/);
});

test('without a heap store: the session tools are listed and say sessions are not configured; no tag tools', async () => {
  const plain = await startServer([]);
  const c = await httpClient(plain.base, { 'X-MCP-Session-Id': 'agent-1' });
  try {
    const names = (await c.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('list_sessions') && names.includes('list_session_snapshots'), names.join());
    assert.ok(!names.includes('get_heap_tags') && !names.includes('query_heaps_by_tags'), names.join());
    for (const name of ['list_sessions', 'list_session_snapshots']) {
      assert.equal(failed(await c.callTool({ name, arguments: {} }))['error'],
        'sessions are not configured on this server: start it with --heap-store dir or s3 to keep a session log');
    }
    assert.equal(c.getInstructions(), defaultInstructions('stateful', 'streamable-http', LIMITS, false));
    assert.match(c.getInstructions() ?? '', /Globals do not persist between runs \(this server has no heap store\)/);
    const tags = failed(await c.callTool({ name: 'run_js', arguments: { code: '1', tags: { n: 1 } } }));
    assert.match(String(tags['error']), /tags/);
  } finally {
    await c.close();
    await plain.stop();
  }
});

test('run_js continues from `heap` (a session alone starts fresh); tags and snapshots through the tools', async () => {
  const first = await runJs(client, { code: 'class P { constructor(public x: number) {} get double() { return this.x * 2; } }; globalThis.p = new P(21); globalThis.f = () => p.double; 0', tags: { kind: 'base' } });
  assert.equal(first['status'], 'completed', JSON.stringify(first));
  const heap = String(first['heap']);
  assert.match(heap, /^[0-9a-f]{64}$/);
  const unpinned = await runJs(client, { code: 'typeof p' });
  assert.equal(unpinned['result'], '"undefined"', 'no `heap`: a fresh isolate, even in a session with history');
  const second = await runJs(client, { code: 'p.x++; f()', heap });
  assert.equal(second['result'], '44');
  assert.deepEqual(ok(await client.callTool({ name: 'get_heap_tags', arguments: { heap } })), { heap, tags: { kind: 'base' } });
  ok(await client.callTool({ name: 'set_heap_tags', arguments: { heap: String(second['heap']), tags: { kind: 'next', n: '2' } } }));
  const q = ok(await client.callTool({ name: 'query_heaps_by_tags', arguments: { tags: { kind: 'next' } } }));
  assert.deepEqual(q, { results: [{ heap: second['heap'], tags: { kind: 'next', n: '2' } }] });
  const del = ok(await client.callTool({ name: 'delete_heap_tags', arguments: { heap: String(second['heap']), keys: 'n' } }));
  assert.deepEqual(del['tags'], { kind: 'next' });
  const snaps = ok(await client.callTool({ name: 'list_session_snapshots', arguments: {} }));
  assert.equal(snaps['session'], 'agent-1');
  assert.deepEqual((snaps['entries'] as { input_heap: string | null; output_heap: string }[]).map((e) => [e.input_heap, e.output_heap]),
    [[null, heap], [null, unpinned['heap']], [heap, second['heap']]]);
  const some = ok(await client.callTool({ name: 'list_session_snapshots', arguments: { fields: 'index, output_heap' } }));
  assert.deepEqual(some['entries'], [{ index: 0, output_heap: heap }, { index: 1, output_heap: unpinned['heap'] }, { index: 2, output_heap: second['heap'] }]);
  const other = await httpClient(server.base, { 'X-MCP-Session-Id': 'agent-2' });
  try {
    const fresh = await runJs(other, { code: 'typeof p' });
    assert.equal(fresh['result'], '"undefined"', 'another session starts fresh');
    const named = ok(await other.callTool({ name: 'list_session_snapshots', arguments: { session: 'agent-1' } }));
    assert.equal((named['entries'] as unknown[]).length, 3);
  } finally {
    await other.close();
  }
  const sessions = ok(await client.callTool({ name: 'list_sessions', arguments: {} }));
  assert.deepEqual(sessions, { sessions: ['agent-1', 'agent-2'] });
});

test('bad heap keys are tool errors; unknown keys fail the execution', async () => {
  assert.match(String(failed(await client.callTool({ name: 'run_js', arguments: { code: '1', heap: 'xyz' } }))['error']), /invalid heap key/);
  assert.match(String(failed(await client.callTool({ name: 'get_heap_tags', arguments: { heap: 'xyz' } }))['error']), /invalid heap key/);
  const badTags = String(failed(await client.callTool({ name: 'run_js', arguments: { code: '1', tags: { n: 1 } } }))['error']);
  assert.equal(badTags, 'Invalid arguments for run_js: tags.n: Invalid input: expected string, received number');
  const missing = 'e'.repeat(64);
  const info = await runJs(client, { code: '1', heap: missing });
  assert.equal(info['status'], 'failed');
  assert.equal(info['heap'], null);
  assert.match(String(info['error']), new RegExp(missing));
});

test('--session-fork-from: the new session\'s log starts at the source\'s latest heap, once', async () => {
  // The server shares nothing with `server` but the heap dir and the database (run after it stops would
  // be cleaner; SQLite WAL lets two processes share the file, and the fork only reads agent-1).
  const forked = await startServer(['--heap-store', 'dir', '--heap-dir', heapDir, '--session-id', 'copy', '--session-fork-from', 'agent-1'], { dbDir });
  try {
    assert.match(forked.stderr(), /session 'copy' forked from session 'agent-1'/);
    const c = await httpClient(forked.base); // no header: --session-id
    try {
      const snaps = ok(await c.callTool({ name: 'list_session_snapshots', arguments: {} }));
      const entries = snaps['entries'] as { code: string; input_heap: string; output_heap: string }[];
      assert.equal(entries.length, 1);
      assert.equal(entries[0]!.code, '// forked from session agent-1');
      const src = ok(await c.callTool({ name: 'list_session_snapshots', arguments: { session: 'agent-1' } }))['entries'] as { output_heap: string }[];
      assert.equal(entries[0]!.output_heap, src.at(-1)!.output_heap);
      const r = await runJs(c, { code: 'p.x += 100; f()', heap: entries[0]!.output_heap });
      assert.equal(r['result'], '244');
      const after = await runJs(client, { code: 'f()', heap: src.at(-1)!.output_heap });
      assert.equal(after['result'], '44', 'the source session is unaffected');
    } finally {
      await c.close();
    }
  } finally {
    await forked.stop();
  }
  const again = await startServer(['--heap-store', 'dir', '--heap-dir', heapDir, '--session-id', 'copy', '--session-fork-from', 'agent-1'], { dbDir });
  try {
    assert.match(again.stderr(), /already has history; not forked/);
  } finally {
    await again.stop();
  }
});

test('--session-fork-from startup errors', async () => {
  const noStore = await runOnce(['--session-id', 'y', '--session-fork-from', 'x']);
  assert.notEqual(noStore.code, 0);
  assert.match(noStore.stderr, /--session-fork-from requires heap and\/or fs persistence/);
  const same = await runOnce(['--heap-store', 'dir', '--session-id', 'x', '--session-fork-from', 'x']);
  assert.match(same.stderr, /must differ from --session-id/);
  const noId = await runOnce(['--heap-store', 'dir', '--session-fork-from', 'x']);
  assert.match(noId.stderr, /requires --session-id/);
  const stateless = await runOnce(['--stateless', '--heap-store', 'dir', '--session-id', 'y', '--session-fork-from', 'x']);
  assert.notEqual(stateless.code, 0);
  assert.match(stateless.stderr, /--session-fork-from cannot be used with --stateless: a stateless server keeps no sessions or heaps/);
});
