// Stub tools for upstream MCP tools: names, the reference's description and call texts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stubResult, stubsOf } from '../../../supervisor/mcp/upstream-stubs.ts';

const catalog = { version: 1, servers: [{ name: 'gh', connected: true, tools: [
  { name: 'list_issues', description: 'Lists issues.', inputSchema: { type: 'object', properties: { repo: { type: 'string' } } }, outputSchema: { type: 'object' } },
  { name: 'me', description: null, inputSchema: { type: 'object' } },
] }] };

test('stubs: <prefix><server>__<tool>, the upstream input schema, no output schema, the reference description', () => {
  const stubs = stubsOf(catalog, 'runjs__');
  assert.deepEqual(stubs.map((s) => s.entry.name), ['runjs__gh__list_issues', 'runjs__gh__me']);
  assert.deepEqual(stubs[0]!.entry, {
    name: 'runjs__gh__list_issues',
    description: '[stub for upstream MCP tool gh.list_issues — invoke via run_js then `await mcp.callTool("gh", "list_issues", args)`. Calling this tool directly only returns instructions; it does not execute.]\n\nLists issues.',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' } } },
  });
  assert.ok(stubs[1]!.entry.description!.endsWith('it does not execute.]'));
  assert.deepEqual(stubsOf(catalog, '').map((s) => s.entry.name), ['gh__list_issues', 'gh__me']);
});

test('calling a stub: the instructions with the arguments pretty-printed, or {}', () => {
  const [issues, me] = stubsOf(catalog, 'x_');
  assert.deepEqual(stubResult(me!, undefined), { content: [{ type: 'text', text: 'This tool is a stub. Execute it from JavaScript via the `run_js` tool, e.g.:\n\nconst result = await mcp.callTool("gh", "me", {});\nconsole.log(JSON.stringify(result));' }] });
  assert.equal((stubResult(issues!, { repo: 'a/b' }).content[0] as { text: string }).text.split('\n')[2], 'const result = await mcp.callTool("gh", "list_issues", {');
});
