// The npm package as a user gets it: `npm pack` (whose prepack builds dist/), the tarball installed
// into an empty directory with nothing but `npm install <tarball>`, then `npx -y runjs-mcp` over
// stdio and over --http-port, driven by the SDK's clients and by inspector-cli. The commands and
// client configurations are read from README's "Use it from an MCP client" section, so the
// README shows exactly what runs here; the one liberty taken is a free port in place of 8080.
// The install resolves dependencies from the npm registry (through npm's cache: --prefer-offline).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ok, settle } from '../mcp/mcp-clients.ts';
import { freePort, ROOT } from '../server/server-process.ts';

const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; mcpName: string };
const INSPECTOR_CLI = join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
const README_PORT = '8080';
const CODE = 'const n: number = 6 * 7; console.log(n)';

interface ClientEntry { command?: string; args?: string[]; url?: string; headers?: Record<string, string> }

/** README's "Use it from an MCP client" section, split at its "Check it from a terminal" subsection. */
function readmeSnippets(): { configs: ClientEntry[]; check: string[] } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /^## Use it from an MCP client\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const [clients = '', check = ''] = section.split(/^### Check it from a terminal\n/m);
  // Fences at the start of a line only: the quoted (`> `) checkout note is not a client config.
  const fences = (text: string, lang?: string): string[] => [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)]
    .filter((m) => lang === undefined || m[1] === lang).map((m) => m[2]!);
  const configs = fences(clients, 'json').flatMap((block) => {
    const doc = JSON.parse(block) as { mcpServers?: Record<string, ClientEntry>; servers?: Record<string, ClientEntry> };
    return Object.values(doc.mcpServers ?? doc.servers ?? {});
  });
  return { configs, check: fences(check) };
}

/** The user's environment with Node 24 first on PATH (the system node may be older), minus what `npm test` and node --test set. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^npm_/i.test(k) && k !== 'NODE_TEST_CONTEXT' && k !== 'NODE_OPTIONS') env[k] = v;
  }
  return { ...env, PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`, ...extra };
}

function run(command: string, args: string[], cwd: string, env = userEnv()): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
    p.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    p.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

let dir: string;
let app: string;
let tarball: string;
let port: string;
let http: ChildProcess | undefined;
const snippets = readmeSnippets();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runjs-package-'));
  app = join(dir, 'app');
  mkdirSync(app);
  const packed = await run('npm', ['pack', '--pack-destination', dir], ROOT);
  tarball = join(dir, `${PKG.name}-${PKG.version}.tgz`);
  assert.ok(packed.code === 0 && existsSync(tarball), `npm pack: ${packed.code}\n${packed.stdout}${packed.stderr}`);
  const installed = await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], app);
  assert.equal(installed.code, 0, installed.stderr);

  // The README's HTTP server, on a free port, stopped with its process group (npx → sh → node).
  port = String(await freePort());
  const [serverBlock = ''] = snippets.check.filter((b) => b.startsWith('npx -y runjs-mcp'));
  http = spawn('sh', ['-c', serverBlock.trim().replaceAll(README_PORT, port)], {
    cwd: app, env: userEnv({ RUNJS_SESSION_DB_PATH: join(dir, 'db-http') }), stdio: ['ignore', 'ignore', 'pipe'], detached: true,
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    http!.stderr!.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
      if (stderr.includes('runjs: listening:')) resolve();
    });
    http!.once('exit', (code) => reject(new Error(`the README's HTTP server exited with ${code}:\n${stderr}`)));
  });
}, { timeout: 300_000 });

after(async () => {
  if (http?.pid !== undefined && http.exitCode === null) {
    const exited = new Promise((r) => http!.once('exit', r));
    process.kill(-http.pid, 'SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

test('the tarball ships compiled JavaScript, the bin and server.json, and no TypeScript', async () => {
  const listed = await run('tar', ['-tzf', tarball], dir);
  const files = listed.stdout.split('\n').filter((f) => f !== '').map((f) => f.replace(/^package\//, ''));
  for (const f of ['bin/runjs-mcp.js', 'dist/package.json', 'dist/supervisor/main.js', 'dist/worker/main.js', 'dist/worker/guest/generated/platform.js',
    'dist/worker/engines/quickjs/bridge.js', 'server.json', 'package.json', 'README.md']) assert.ok(files.includes(f), f);
  assert.deepEqual(files.filter((f) => f.endsWith('.ts')), []);
  assert.deepEqual(files.filter((f) => !/^(bin|dist|docs)\//.test(f)).sort(), ['README.md', 'config.example.toml', 'openapi.json', 'package.json', 'server.json']);
  assert.ok(existsSync(join(app, 'node_modules/.bin/runjs-mcp')));
});

test('server.json describes this package for the MCP registry (npm, stdio)', () => {
  const server = JSON.parse(readFileSync(join(ROOT, 'server.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(server['$schema'], 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
  assert.equal(server['name'], PKG.mcpName);
  assert.equal(server['version'], PKG.version);
  assert.ok(String(server['description']).length <= 100, 'the registry caps descriptions at 100 characters');
  assert.deepEqual(server['packages'], [{
    registryType: 'npm', registryBaseUrl: 'https://registry.npmjs.org', identifier: PKG.name, version: PKG.version, runtimeHint: 'npx', transport: { type: 'stdio' },
  }]);
});

test('every README stdio configuration: the SDK client starts it with npx and runs run_js', async () => {
  const commands = [...new Set(snippets.configs.filter((c) => c.command !== undefined).map((c) => JSON.stringify([c.command, c.args ?? []])))];
  assert.deepEqual(commands, [JSON.stringify(['npx', ['-y', 'runjs-mcp']]), JSON.stringify(['npx', ['-y', 'runjs-mcp', '--stateless']])]);
  for (const [i, entry] of commands.entries()) {
    const [command, args] = JSON.parse(entry) as [string, string[]];
    const transport = new StdioClientTransport({ command, args, cwd: app, env: userEnv({ RUNJS_SESSION_DB_PATH: join(dir, `db-stdio-${i}`) }), stderr: 'pipe' });
    const client = new Client({ name: 'runjs-package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = ok(await client.callTool({ name: 'run_js', arguments: { code: CODE } }));
      if (args.includes('--stateless')) {
        assert.deepEqual(result, { output: '42\n' });
      } else {
        const id = String(result['execution_id']);
        assert.equal((await settle(client, id))['status'], 'completed');
        assert.equal(ok(await client.callTool({ name: 'get_execution_output', arguments: { execution_id: id } }))['data'], '42\n');
      }
    } finally {
      await client.close();
    }
  }
});

test('every README HTTP configuration: the SDK client reaches the README\'s --http-port server', async () => {
  const urls = snippets.configs.filter((c) => c.url !== undefined);
  assert.equal(urls.length, 2);
  for (const entry of urls) {
    const client = new Client({ name: 'runjs-package-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url!.replace(README_PORT, port)), { requestInit: { headers: entry.headers ?? {} } }));
    try {
      assert.deepEqual(ok(await client.callTool({ name: 'run_js', arguments: { code: CODE } })), { output: '42\n' });
    } finally {
      await client.close();
    }
  }
});

test('the README\'s inspector-cli commands, over stdio and HTTP, print what the README shows', async () => {
  const [config = '', , commands = '', printed = ''] = snippets.check;
  assert.equal(snippets.check.length, 4, 'runjs.json, the server command, the inspector commands, their output');
  // inspector-cli 1.0.x finds its own package.json only from a working directory whose parent
  // has one (README says so): a subdirectory of the project.
  const cwd = join(app, 'check');
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'runjs.json'), config);
  const lines = commands.trim().split('\n');
  assert.equal(lines.length, 2);
  for (const line of lines) {
    assert.ok(line.startsWith('npx @modelcontextprotocol/inspector-cli '), line);
    // The project's dev copy of inspector-cli stands in for npx fetching it; the rest of the line
    // runs as written, through sh.
    const cmd = line.replace('npx @modelcontextprotocol/inspector-cli', `node ${JSON.stringify(INSPECTOR_CLI)}`).replaceAll(README_PORT, port);
    const r = await run('sh', ['-c', cmd], cwd, userEnv({ RUNJS_SESSION_DB_PATH: join(dir, 'db-inspector') }));
    assert.deepEqual([r.code, r.stdout], [0, printed.replace(/\n$/, '')], r.stderr);
  }
});
