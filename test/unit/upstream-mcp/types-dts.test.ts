// The `mcp` global's declarations: JSON Schema → TypeScript for the shapes tool schemas use, and
// the generated text type-checks — a script using the typed bindings right compiles, one using
// them wrong does not (the TypeScript compiler itself is the judge).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import ts from 'typescript';
import { typesDts } from '../../../supervisor/upstream-mcp/types-dts.ts';
import type { McpCatalog } from '../../../shared/mcp-catalog.ts';

const CATALOG: McpCatalog = {
  version: 7,
  servers: [{
    name: 'git-hub',
    connected: false,
    tools: [
      {
        name: 'search_issues',
        description: 'Finds issues. Ends a comment: */ safely.',
        inputSchema: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'Search text' },
            state: { enum: ['open', 'closed'] },
            labels: { type: 'array', items: { type: 'string' } },
            limit: { type: ['integer', 'null'] },
            'per-page': { type: 'number' },
            filter: { anyOf: [{ type: 'string' }, { type: 'object', properties: { author: { type: 'string' } }, required: ['author'], additionalProperties: false }] },
            ref: { $ref: '#/definitions/x' },
          },
          required: ['query'],
        },
        outputSchema: { type: 'object', properties: { total: { type: 'integer' }, items: { type: 'array', items: { type: 'object', properties: { id: { type: 'number' }, title: { type: 'string' } }, required: ['id', 'title'] } } }, required: ['total', 'items'] },
      },
      { name: 'ping', description: null, inputSchema: { type: 'object', properties: {} } },
    ],
  }],
};

function diagnostics(script: string): string[] {
  const files = new Map([['/mcp.d.ts', typesDts(CATALOG)], ['/main.ts', `${script}\nexport {};\n`]]);
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, lib: ['lib.es2022.d.ts'], types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang) => (files.has(name) ? ts.createSourceFile(name, files.get(name)!, lang) : read(name, lang));
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  const program = ts.createProgram(['/mcp.d.ts', '/main.ts'], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

test('the declarations: argument and result types from the schemas, docs, quoted names, the state', () => {
  const dts = typesDts(CATALOG);
  assert.match(dts, /^\/\/ Catalogue version 7\.$/m);
  assert.match(dts, /\/\*\* Upstream MCP server "git-hub" \(not connected at the moment; tools as last listed\)\. \*\/\n {2}"git-hub": \{/);
  assert.match(dts, /Ends a comment: \*\\\/ safely\./);
  assert.match(dts, /state\?: "open" \| "closed";/);
  assert.match(dts, /labels\?: string\[\];/);
  assert.match(dts, /limit\?: number \| null;/);
  assert.match(dts, /"per-page"\?: number;/);
  assert.match(dts, /ref\?: unknown;/);
  assert.match(dts, /\}\): Promise<\{\n {6}total: number;\n {6}items: Array<\{/);
  assert.match(dts, /ping\(args\?: \{\n {6}\[key: string\]: unknown;\n {4}\}\): Promise<McpToolResult>;/);
});

test('the declarations type-check a right use of the bindings and reject a wrong one', () => {
  assert.deepEqual(diagnostics(`
    async function main() {
      const r = await mcp.tools['git-hub'].search_issues({ query: 'bug', state: 'open', filter: { author: 'me' } });
      const n: number = r.total + r.items[0]!.id;
      const t: string = r.items[0]!.title;
      const plain = await mcp.callTool('git-hub', 'ping');
      const text: string = plain.content[0]!.type;
      const names: string[] = mcp.servers.concat(mcp.listTools().map((x) => x.name));
      try { await mcp.tools['git-hub'].ping(); } catch (e) { if (e instanceof McpToolError) console.log(e.serverName, e.result.isError); }
      return [n, t, text, names];
    }
    declare const console: { log(...a: unknown[]): void };
    void main;
  `), []);
  const wrong = diagnostics(`
    async function main() {
      await mcp.tools['git-hub'].search_issues({ state: 'merged' });
      const r = await mcp.tools['git-hub'].search_issues({ query: 'x' });
      const s: string = r.total;
      return s;
    }
    void main;
  `);
  assert.equal(wrong.length, 2, wrong.join('\n'));
  assert.match(wrong[0]!, /Property 'query' is missing|not assignable/);
  assert.match(wrong[1]!, /Type 'number' is not assignable to type 'string'/);
});
