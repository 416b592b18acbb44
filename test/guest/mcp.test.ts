// The `mcp` global on both engines, against real upstream MCP servers started here (stdio child,
// Streamable HTTP and legacy SSE on 127.0.0.1, all built with the SDK's McpServer) through the
// supervisor's real upstream clients (supervisor/upstream-mcp/) and delegated-op route: callTool,
// McpToolError, listTools, servers, the typed bindings, argument checks and size caps, the
// mcp_tools policy (a JavaScript hook denies and rewrites; decisions in the run's log), and calls
// beyond the per-run concurrency waiting their turn.
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guestSuite } from '../helpers/both-engines.ts';
import { OpRouter } from '../../supervisor/pool/op-router.ts';
import { UpstreamHub, upstreamOpRoutes } from '../../supervisor/upstream-mcp/index.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';
import { startHttpUpstream, startSseUpstream, UPSTREAM_SCRIPT } from '../fixtures/upstream-mcp/upstream-server.ts';

const http = await startHttpUpstream('http-up');
const sse = await startSseUpstream('sse-up');
const quiet = { info: () => {}, warn: () => {} };
const hub = new UpstreamHub([
  { name: 'local', transport: 'stdio', command: process.execPath, args: [UPSTREAM_SCRIPT, 'stdio-up'], env: {} },
  { name: 'web', transport: 'http', url: http.url },
  { name: 'legacy', transport: 'sse', url: sse.url },
], { version: 'test', log: quiet });
await hub.start();
after(async () => {
  await hub.close();
  await http.close();
  await sse.close();
});

const upstream = { ops: new OpRouter([upstreamOpRoutes(hub)], () => {}), pool: { mcpCatalog: () => hub.catalogJson() } };

guestSuite('mcp global', (g) => {
  g.test('callTool over stdio, Streamable HTTP and SSE: content blocks, isError false', async (ctx) => {
    const out = await ctx.output(`
      for (const s of ['local', 'web', 'legacy']) console.log(JSON.stringify(await mcp.callTool(s, 'echo', { text: 'hi' })));
      console.log(JSON.stringify(mcp.servers));
    `);
    assert.equal(out, [
      '{"content":[{"type":"text","text":"stdio-up: hi"}],"isError":false}',
      '{"content":[{"type":"text","text":"http-up: hi"}],"isError":false}',
      '{"content":[{"type":"text","text":"sse-up: hi"}],"isError":false}',
      '["local","web","legacy"]',
      '',
    ].join('\n'));
  });

  g.test('an upstream isError result throws McpToolError with result, serverName and toolName (reference text)', async (ctx) => {
    const out = await ctx.output(`
      for (const args of [{ why: 'no disk' }, {}]) {
        try { await mcp.callTool('web', 'fail', args); console.log('no error'); }
        catch (e) { console.log(e instanceof McpToolError, e instanceof Error, e.name, e.message, e.serverName, e.toolName, e.result.isError, e.result.content[0].text); }
      }
    `);
    assert.equal(out, 'true true McpToolError mcp.callTool web.fail failed: no disk web fail true no disk\n'
      + 'true true McpToolError mcp.callTool web.fail failed: it broke web fail true it broke\n');
  });

  g.test('listTools (synchronous, all or one server) and its shape', async (ctx) => {
    const out = await ctx.output(`
      const all = mcp.listTools();
      console.log(all.length, new Set(all.map((t) => t.server)).size);
      const web = mcp.listTools('web');
      const add = web.find((t) => t.name === 'add');
      console.log(web.every((t) => t.server === 'web'), add.description, Object.keys(add.inputSchema.properties).join(','), Object.keys(add.outputSchema.properties).join(','));
      const pid = web.find((t) => t.name === 'pid');
      console.log(JSON.stringify(Object.keys(pid)), pid.outputSchema === undefined);
      try { mcp.listTools('nope'); } catch (e) { console.log(e.message); }
    `);
    assert.equal(out, [
      '21 3',
      'true Adds two numbers. a,b sum,parts',
      '["server","name","description","inputSchema"] true',
      `MCP server 'nope' not found. Available: ["local", "web", "legacy"]`,
      '',
    ].join('\n'));
  });

  g.test('typed bindings: structuredContent when the tool declares an output schema, the whole result otherwise; errors thrown', async (ctx) => {
    const out = await ctx.output(`
      console.log(JSON.stringify(await mcp.tools.web.add({ a: 2, b: 3 })));
      console.log(JSON.stringify(await mcp.tools.legacy.add({ a: 1, b: 1 })));
      console.log(JSON.stringify(await mcp.tools.local.echo({ text: 'typed' })));
      console.log(Object.keys(mcp.tools).join(','), Object.keys(mcp.tools.web).length, mcp.tools.web.add.name, mcp.tools.web.add.description);
      try { await mcp.tools.web.fail({ why: 'typed failure' }); } catch (e) { console.log(e.name, e.message); }
      console.log(mcp.tools === mcp.tools, Object.isFrozen(mcp.tools.web));
    `);
    assert.equal(out, [
      '{"sum":5,"parts":[2,3]}',
      '{"sum":2,"parts":[1,1]}',
      '{"content":[{"type":"text","text":"stdio-up: typed"}],"isError":false}',
      'local,web,legacy 7 add Adds two numbers.',
      'McpToolError mcp.callTool web.fail failed: typed failure',
      'true true',
      '',
    ].join('\n'));
  });

  g.test('argument checks: names must be strings, arguments an object; unknown server; upstream protocol errors', async (ctx) => {
    const out = await ctx.output(`
      for (const call of [() => mcp.callTool(1, 'x'), () => mcp.callTool('web', null), () => mcp.callTool('web', 'echo', [1])]) {
        try { call(); console.log('no throw'); } catch (e) { console.log(e.name, e.message); }
      }
      try { await mcp.callTool('nope', 'echo', {}); } catch (e) { console.log(e.name, e.message); }
      try { await mcp.callTool('web', 'no_such_tool', {}); } catch (e) { console.log(e.name, e.message.startsWith('mcp.callTool web.no_such_tool failed: ') || e.message); }
      try { await mcp.callTool('web', 'echo', { text: 5 }); } catch (e) { console.log(e.name, e.message.startsWith('mcp.callTool web.echo failed: ') || e.message); }
    `);
    assert.equal(out, [
      'TypeError mcp.callTool: server name must be a string',
      'TypeError mcp.callTool: tool name must be a string',
      'TypeError mcp.callTool: arguments must be an object',
      `Error MCP server 'nope' not found. Available: ["local", "web", "legacy"]`,
      'McpToolError true',
      'McpToolError true',
      '',
    ].join('\n'));
  });

  g.test('size caps: arguments over 4 MiB are refused before they leave the worker; a large result arrives whole', async (ctx) => {
    const out = await ctx.output(`
      try { await mcp.callTool('web', 'echo', { text: 'x'.repeat(4 * 1024 * 1024) }); } catch (e) { console.log(e.name, e.message); }
      const r = await mcp.callTool('web', 'big', { n: 1000000 });
      console.log(r.content[0].text.length);
    `, { heapMemoryMaxMb: 64 });
    assert.equal(out, 'RangeError mcp.callTool web.echo: the arguments are 4194315 bytes of JSON, more than the limit of 4194304 bytes (4 MiB)\n1000000\n');
  });

  g.test('twelve calls at once: four reach the server at a time, the rest wait; all answer', async (ctx) => {
    const out = await ctx.output(`
      const t0 = Date.now();
      const rs = await Promise.all(Array.from({ length: 12 }, (_, i) => mcp.callTool('web', 'slow', { ms: 100 })));
      const ms = Date.now() - t0;
      console.log(rs.length, rs.every((r) => r.content[0].text === 'slept 100'), ms >= 300);
    `, { timeoutMs: 20_000 });
    assert.equal(out, '12 true true\n');
  });
}, upstream);

const hookDir = mkdtempSync(join(tmpdir(), 'runjs-mcp-hooks-'));
function hook(name: string, source: string): string {
  writeFileSync(join(hookDir, name), source);
  return pathToFileURL(join(hookDir, name)).href;
}

guestSuite('mcp global: the mcp_tools policy', (g) => {
  g.test('a JavaScript hook denies (reference text, catchable, ERR_POLICY_DENIED); a pre hook rewrites arguments; decisions are logged', async (ctx) => {
    const res = await ctx.run(`
      try { await mcp.callTool('web', 'fail', {}); } catch (e) { console.log(e.name, e.code, e.message); }
      try { await mcp.callTool('web', 'pid'); } catch (e) { console.log(e.name, e.code, e.message); }
      console.log((await mcp.callTool('web', 'echo', { text: 'secret' })).content[0].text);
    `);
    assert.equal(res.outcome.status, 'completed');
    assert.equal(res.output, [
      'Error ERR_POLICY_DENIED mcp.callTool denied by policy: failing tools are off limits',
      'Error ERR_POLICY_DENIED mcp.callTool denied by policy: web.pid is not allowed',
      'http-up: [rewritten]',
      '',
    ].join('\n'));
    const entries = res.decisions?.entries ?? [];
    assert.deepEqual(entries.map((e) => [e.category, e.verdict]), [['mcp_tools', 'deny'], ['mcp_tools', 'deny'], ['mcp_tools', 'allow']]);
    assert.deepEqual(entries[0]?.input, { operation: 'mcp_call_tool', server: 'web', tool: 'fail', arguments: {} });
    assert.deepEqual(entries[1]?.input, { operation: 'mcp_call_tool', server: 'web', tool: 'pid', arguments: null });
  });
}, {
  ...upstream,
  pool: {
    ...upstream.pool,
    get policies() {
      return parsePolicyConfig({
        mcp_tools: {
          pre: [{ url: hook('rewrite.js', "export default (input) => input.arguments?.text === 'secret' ? { input: { ...input, arguments: { text: '[rewritten]' } } } : undefined;") }],
          policies: [{ url: hook('deny.js', "export default (input) => input.tool === 'fail' ? { allow: false, reason: 'failing tools are off limits' } : input.tool !== 'pid';") }],
        },
      });
    },
  },
});

// A Rego policy (issue 14's end-to-end case for mcp_tools): the default rule data.mcp.tools.allow,
// by server and tool.
const TOOLS_REGO = `package mcp.tools

default allow := false

allow if {
  input.operation == "mcp_call_tool"
  input.server == "web"
  input.tool in {"echo"}
}
`;

guestSuite('mcp global: a Rego mcp_tools policy', (g) => {
  g.test('allowed by server and tool; anything else denied with the operation\'s text', async (ctx) => {
    const res = await ctx.run(`
      console.log((await mcp.callTool('web', 'echo', { text: 'rego' })).content[0].text);
      for (const [s, t] of [['web', 'pid'], ['local', 'echo']]) {
        try { await mcp.callTool(s, t, { text: 'x' }); console.log('called'); } catch (e) { console.log(e.code, e.message); }
      }
    `);
    assert.equal(res.outcome.status, 'completed', JSON.stringify(res));
    assert.equal(res.output, [
      'http-up: rego',
      'ERR_POLICY_DENIED mcp.callTool denied by policy: web.pid is not allowed',
      'ERR_POLICY_DENIED mcp.callTool denied by policy: local.echo is not allowed',
      '',
    ].join('\n'));
    assert.deepEqual((res.decisions?.entries ?? []).map((e) => e.verdict), ['allow', 'deny', 'deny']);
  });
}, {
  ...upstream,
  pool: {
    ...upstream.pool,
    get policies() {
      return parsePolicyConfig({ mcp_tools: { policies: [{ url: hook('tools.rego', TOOLS_REGO) }] } });
    },
  },
});
