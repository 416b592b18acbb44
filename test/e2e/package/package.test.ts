// The npm package as a user gets it: `npm pack` (whose prepack builds dist/), the tarball installed
// into an empty directory with nothing but `npm install <tarball>`, then `npx -y runjs-mcp` over
// stdio and over --http-port, driven by the SDK's clients and by inspector-cli. The commands and
// client configurations are read from README's "Use it from an MCP client" section, so the
// README shows exactly what runs here. Liberties: a free port in place of 8080, and the environment
// (not the snippets) gives each server its own --session-db-path and one worker
// (RUNJS_MAX_CONCURRENT_EXECUTIONS=1: several servers start at once on a small machine).
// The install resolves dependencies from the npm registry (through npm's cache: --prefer-offline).
import { describe, test, before, after } from 'node:test';
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
/** Settles once the README's HTTP server listens (started in `before`, awaited by the tests that use it). */
let httpReady: Promise<void>;
const snippets = readmeSnippets();

/** A server's environment: its own session database, one worker. */
function serverEnv(name: string): Record<string, string> {
  return userEnv({ RUNJS_SESSION_DB_PATH: join(dir, `db-${name}`), RUNJS_MAX_CONCURRENT_EXECUTIONS: '1' });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runjs-package-'));
  app = join(dir, 'app');
  mkdirSync(app);
  const packed = await run('npm', ['pack', '--pack-destination', dir, '--loglevel=error'], ROOT);
  tarball = join(dir, `${PKG.name}-${PKG.version}.tgz`);
  assert.ok(packed.code === 0 && existsSync(tarball), `npm pack: ${packed.code}\n${packed.stdout}${packed.stderr}`);
  const installed = await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
  assert.equal(installed.code, 0, installed.stderr);

  // The README's HTTP server, on a free port, stopped with its process group (npx → sh → node).
  port = String(await freePort());
  const [serverBlock = ''] = snippets.check.filter((b) => b.startsWith('npx -y runjs-mcp'));
  const server = spawn('sh', ['-c', serverBlock.trim().replaceAll(README_PORT, port)], {
    cwd: app, env: serverEnv('http'), stdio: ['ignore', 'ignore', 'pipe'], detached: true,
  });
  http = server;
  let stderr = '';
  httpReady = new Promise<void>((resolve, reject) => {
    server.stderr!.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
      if (stderr.includes('runjs: listening:')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`the README's HTTP server exited with ${code}:\n${stderr}`)));
  });
  httpReady.catch(() => {}); // reported by the tests that await it
}, { timeout: 300_000 });

after(async () => {
  if (http?.pid !== undefined && http.exitCode === null && http.signalCode === null) {
    const exited = new Promise((r) => http!.once('exit', r));
    process.kill(-http.pid, 'SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one of README's inspector-cli lines through sh; its stdout. */
async function inspector(line: string, name: string): Promise<string> {
  assert.ok(line.startsWith('npx @modelcontextprotocol/inspector-cli '), line);
  // The project's dev copy of inspector-cli stands in for npx fetching it; the rest of the line
  // runs as written. inspector-cli 1.0.x finds its own package.json only from a working directory
  // whose parent has one (README says so): a subdirectory of the project.
  const cwd = join(app, `check-${name}`);
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'runjs.json'), snippets.check[0]!);
  const cmd = line.replace('npx @modelcontextprotocol/inspector-cli', `node ${JSON.stringify(INSPECTOR_CLI)}`).replaceAll(README_PORT, port);
  const r = await run('sh', ['-c', cmd], cwd, serverEnv(`inspector-${name}`));
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

// Independent of each other: run at once, so server starts overlap.
describe('the installed package', { concurrency: true }, () => {
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

  test('README stdio configurations: the SDK client starts `npx -y runjs-mcp`, inspector-cli the --stateless one', async () => {
    const commands = [...new Set(snippets.configs.filter((c) => c.command !== undefined).map((c) => JSON.stringify([c.command, c.args ?? []])))];
    const inspectorConfig = JSON.parse(snippets.check[0] ?? '{}') as { mcpServers: { runjs: ClientEntry } };
    assert.deepEqual(commands, [JSON.stringify(['npx', ['-y', 'runjs-mcp']]), JSON.stringify([inspectorConfig.mcpServers.runjs.command, inspectorConfig.mcpServers.runjs.args])]);
    const transport = new StdioClientTransport({ command: 'npx', args: ['-y', 'runjs-mcp'], cwd: app, env: serverEnv('stdio'), stderr: 'pipe' });
    const client = new Client({ name: 'runjs-package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const id = String(ok(await client.callTool({ name: 'run_js', arguments: { code: CODE } }))['execution_id']);
      assert.equal((await settle(client, id))['status'], 'completed');
      assert.equal(ok(await client.callTool({ name: 'get_execution_output', arguments: { execution_id: id } }))['data'], '42\n');
    } finally {
      await client.close();
    }
  });

  test('every README HTTP configuration: the SDK client reaches the README\'s --http-port server', async () => {
    const urls = snippets.configs.filter((c) => c.url !== undefined);
    assert.equal(urls.length, 2);
    await httpReady;
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

  test('README\'s inspector-cli commands print what README shows: over stdio (runjs.json) and over HTTP', async () => {
    assert.equal(snippets.check.length, 4, 'runjs.json, the server command, the inspector commands, their output');
    const [, , commands = '', printed = ''] = snippets.check;
    const [stdio = '', overHttp = '', ...rest] = commands.trim().split('\n');
    assert.deepEqual(rest, []);
    const expected = printed.replace(/\n$/, '');
    const printedBy = await Promise.all([inspector(stdio, 'stdio'), httpReady.then(() => inspector(overHttp, 'http'))]);
    assert.deepEqual(printedBy, [expected, expected]);
  });
});
