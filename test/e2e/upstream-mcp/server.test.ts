// Upstream MCP servers through the real server process and the SDK's real MCP client: `run_js`
// whose script calls an upstream tool (plain and typed), the stubs in tools/list with the
// reference's texts and what calling one answers, the `mcp` global's declarations as an MCP
// resource and over REST, and `--mcp-stubs=false` (`auth`: oauth.test.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { httpClient, ok, settle } from '../mcp/mcp-clients.ts';
import { startHttpUpstream, UPSTREAM_SCRIPT, type HttpUpstream } from '../../fixtures/upstream-mcp/upstream-server.ts';

let upstream: HttpUpstream;
let server: ServerProcess;
let client: Client;

before(async () => {
  upstream = await startHttpUpstream('web-up');
  server = await startServer([
    `--mcp-server=local=stdio:${process.execPath}:${UPSTREAM_SCRIPT}:local-up`,
    `--mcp-config=${JSON.stringify([{ name: 'web', transport: 'http', url: upstream.url }])}`,
  ]);
  client = await httpClient(server.base);
});

after(async () => {
  await client?.close();
  assert.equal(await server?.stop(), 0);
  await upstream?.close();
});

async function run(code: string): Promise<Record<string, unknown>> {
  const { execution_id: id } = ok(await client.callTool({ name: 'run_js', arguments: { code } })) as { execution_id: string };
  return settle(client, id);
}

test('run_js: a script calls upstream tools over stdio and Streamable HTTP, plain and typed', async () => {
  const info = await run(`
    const a = await mcp.callTool('local', 'echo', { text: 'from a script' });
    const sum = await mcp.tools.web.add({ a: 20, b: 22 });
    ({ echoed: a.content[0].text, sum: sum.sum, servers: mcp.servers })
  `);
  assert.equal(info['status'], 'completed', String(info['error']));
  assert.deepEqual(JSON.parse(String(info['result'])), { echoed: 'local-up: from a script', sum: 42, servers: ['local', 'web'] });
  const decisions = ok(await client.callTool({ name: 'get_execution_decisions', arguments: { execution_id: info['execution_id'] } }));
  const entries = decisions['decisions'] as { category: string; verdict: string; configured: boolean }[];
  assert.deepEqual(entries.map((e) => [e.category, e.verdict, e.configured]), [['mcp_tools', 'allow', false], ['mcp_tools', 'allow', false]]);
});

test('tools/list: the own tools, then one stub per upstream tool (reference texts); calling a stub answers how to call it', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  assert.ok(names.includes('run_js'));
  const stubs = names.filter((n) => n.startsWith('runjs__'));
  assert.deepEqual(stubs, ['add', 'big', 'crash', 'echo', 'fail', 'pid', 'slow'].map((t) => `runjs__local__${t}`).concat(['echo', 'add', 'fail', 'slow', 'pid', 'big', 'crash'].map((t) => `runjs__web__${t}`)).sort((x, y) => names.indexOf(x) - names.indexOf(y)));
  assert.equal(names.indexOf(stubs[0]!), names.length - stubs.length, 'stubs come after the own tools');
  const echo = tools.find((t) => t.name === 'runjs__web__echo')!;
  assert.equal(echo.description, '[stub for upstream MCP tool web.echo — invoke via run_js then `await mcp.callTool("web", "echo", args)`. Calling this tool directly only returns instructions; it does not execute.]\n\nEchoes the text back.');
  assert.deepEqual(Object.keys((echo.inputSchema as { properties: object }).properties), ['text']);
  const res = await client.callTool({ name: 'runjs__web__echo', arguments: { text: 'hi' } });
  assert.deepEqual(res.content, [{
    type: 'text',
    text: 'This tool is a stub. Execute it from JavaScript via the `run_js` tool, e.g.:\n\nconst result = await mcp.callTool("web", "echo", {\n  "text": "hi"\n});\nconsole.log(JSON.stringify(result));',
  }]);
  assert.equal(res.isError, undefined);
});

test('initialize: the instructions name the servers and the types resource; resources are advertised', () => {
  const instructions = client.getInstructions() ?? '';
  assert.match(instructions, /\n\nExternal MCP servers are callable from run_js scripts: `await mcp\.callTool\(server, tool, args\)` or the typed `mcp\.tools\.<server>\.<tool>\(args\)` \(servers: local, web\)\. Their typed API is the resource runjs:\/\/mcp-servers\/types\.d\.ts;/);
  assert.deepEqual(client.getServerCapabilities()?.resources, { listChanged: true }); // artifacts are resources too (stateful)
});

test('the mcp global\'s declarations: an MCP resource and GET /api/mcp-servers/types.d.ts, the same text', async () => {
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => [r.uri, r.mimeType]), [['runjs://mcp-servers/types.d.ts', 'application/typescript']]);
  const read = await client.readResource({ uri: 'runjs://mcp-servers/types.d.ts' });
  const dts = (read.contents[0] as { text: string }).text;
  assert.match(dts, /interface McpTools \{/);
  assert.match(dts, / {4}add\(args: \{\n {6}a: number;\n {6}b: number;\n {4}\}\): Promise<\{\n {6}sum: number;\n {6}parts: number\[\];\n {4}\}>;/);
  assert.match(dts, / {4}\/\*\*\n {5}\* Echoes the text back\.\n {5}\*\n {5}\* mcp\.callTool\("web", "echo", args\)\n {5}\*\/\n {4}echo\(args: \{\n {6}\/\*\* What to echo \*\/\n {6}text: string;\n {4}\}\): Promise<McpToolResult>;/);
  assert.match(dts, / {4}pid\(args\?: \{\n {6}\[key: string\]: unknown;\n {4}\}\): Promise<McpToolResult>;/);
  const rest = await fetch(`${server.base}/api/mcp-servers/types.d.ts`);
  assert.equal(rest.status, 200);
  assert.equal(rest.headers.get('content-type'), 'application/typescript; charset=utf-8');
  assert.equal(await rest.text(), dts);
});

test('--mcp-stubs=false lists no stubs; scripts still reach the servers', async () => {
  const s = await startServer([`--mcp-config=${JSON.stringify({ web: { transport: 'http', url: upstream.url } })}`, '--mcp-stubs=false']);
  const c = await httpClient(s.base);
  try {
    const { tools } = await c.listTools();
    assert.ok(!tools.some((t) => t.name.includes('__')));
    const { execution_id: id } = ok(await c.callTool({ name: 'run_js', arguments: { code: `(await mcp.callTool('web', 'echo', { text: 'x' })).content[0].text` } })) as { execution_id: string };
    assert.equal((await settle(c, id))['result'], '"web-up: x"');
  } finally {
    await c.close();
    assert.equal(await s.stop(), 0);
  }
});
