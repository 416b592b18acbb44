// The package launcher (bin/runjs-mcp.js, what `npx runjs-mcp` runs): from the checkout, and from
// an installed copy under node_modules, where Node refuses to strip types and the launcher runs a
// per-user copy of the runtime files instead (workers included).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { defaultInstructions, defaultRunJsDescription } from '../../../supervisor/mcp/mcp-texts.ts';
import { packageVersion } from '../../../supervisor/rest/index.ts';
import { ok } from '../mcp/mcp-clients.ts';
import { NODE, ROOT } from './server-process.ts';

let dir: string;
before(() => { dir = mkdtempSync(join(tmpdir(), 'runjs-install-')); });
after(() => { rmSync(dir, { recursive: true, force: true }); });

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(NODE, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
    p.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    p.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('from the checkout: bin/runjs-mcp.js runs the entry point in place', async () => {
  const r = await run([join(ROOT, 'bin/runjs-mcp.js'), '--version'], { PATH: process.env['PATH'] ?? '' });
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, `${packageVersion()}\n`, '']);
});

// Pretends to be another Node version (process.versions.node is what the launcher checks first).
function asNodeVersion(version: string): string[] {
  return ['--import', `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}})`];
}

test('a Node older than 22.12 gets the plain "use Node.js 22.12 or later" message, not a "bad option" from a re-spawn', async () => {
  for (const version of ['20.20.2', '22.11.0']) {
    const r = await run([...asNodeVersion(version), join(ROOT, 'bin/runjs-mcp.js'), '--version'], { PATH: process.env['PATH'] ?? '' });
    assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', `runjs: this Node.js (v${version}) is too old; use Node.js 22.12 or later\n`]);
  }
  const r = await run([...asNodeVersion('22.12.0'), join(ROOT, 'bin/runjs-mcp.js'), '--version'], { PATH: process.env['PATH'] ?? '' });
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, `${packageVersion()}\n`, '']);
});

test('installed under node_modules: a cached copy serves MCP over stdio, workers included', async () => {
  // What `npm install runjs-mcp` lays out: the package under node_modules, its dependencies beside it.
  const pkg = join(dir, 'project', 'node_modules', 'runjs-mcp');
  mkdirSync(pkg, { recursive: true });
  for (const entry of ['package.json', 'bin', 'supervisor', 'worker', 'shared']) cpSync(join(ROOT, entry), join(pkg, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  const home = join(dir, 'home');
  mkdirSync(home);

  const transport = new StdioClientTransport({
    command: NODE,
    args: [join(pkg, 'bin/runjs-mcp.js'), '--stateless', '--session-db-path', join(dir, 'db'), '--max-concurrent-executions', '1'],
    env: { PATH: process.env['PATH'] ?? '', HOME: home }, cwd: dir, stderr: 'pipe',
  });
  const client = new Client({ name: 'runjs-e2e', version: '1.0.0' });
  await client.connect(transport);
  try {
    const limits = { defaultTimeoutSecs: 30, defaultHeapMb: 8, maxHeapMb: 1024 };
    assert.equal(client.getInstructions(), defaultInstructions('stateless', 'stdio', limits));
    // Stateless mode lists run_js alone, described without the artifact tools.
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => [t.name, t.description]), [['run_js', defaultRunJsDescription('stateless', limits, false, false)]]);
    assert.deepEqual(ok(await client.callTool({ name: 'run_js', arguments: { code: 'const n: number = 6 * 7; console.log(n)' } })), { output: '42\n' });
  } finally {
    await client.close();
  }
  const cache = join(home, '.cache', 'runjs-mcp');
  const copies = readdirSync(cache).filter((d) => !d.includes('.staging-'));
  assert.equal(copies.length, 1);
  assert.match(copies[0]!, new RegExp(`^${packageVersion().replaceAll('.', '\\.')}-[0-9a-f]{16}$`));
  assert.ok(existsSync(join(cache, copies[0]!, 'supervisor', 'main.ts')));
  assert.ok(existsSync(join(cache, copies[0]!, 'node_modules', '@modelcontextprotocol', 'sdk')), 'dependencies resolve from the copy');
});
