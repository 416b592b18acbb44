// The entry point's one-shot flags and startup failures: exit codes, the exact stderr line, and
// nothing on stdout unless asked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiJson, packageVersion } from '../../../supervisor/rest/index.ts';
import { helpText } from '../../../supervisor/config/help-text.ts';
import { freePort, ROOT, runOnce, startServer } from './server-process.ts';

const ENV = { PATH: process.env['PATH'] ?? '' };

test('--print-openapi prints the document and exits without starting anything', async () => {
  const r = await runOnce(['--print-openapi', '--http-port', '1']);
  assert.deepEqual([r.code, r.stderr], [0, '']);
  assert.equal(r.stdout, openApiJson(packageVersion()));
  assert.equal((JSON.parse(r.stdout) as { openapi: string }).openapi, '3.1.0');
});

test('--version and --help print to stdout and exit 0', async () => {
  const [version, help] = await Promise.all([runOnce(['--version']), runOnce(['--help'])]);
  assert.deepEqual([version.code, version.stdout, version.stderr], [0, `${packageVersion()}\n`, '']);
  assert.equal(packageVersion(), (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  assert.deepEqual([help.code, help.stdout, help.stderr], [0, helpText(), '']);
});

test('configuration errors: exit 2 with one "runjs: <message>" line on stderr, nothing on stdout', async () => {
  const cases: [string[], string][] = [
    [['--http-port', '8080', '--sse-port', '8081'], '--http-port and --sse-port cannot be used together'],
    [['--nope'], 'unknown flag --nope; see --help'],
    [['--fs-store', 'dir', '--harden-freeze-ops'], '--harden-freeze-ops is not supported yet'],
    [['--heap-store', 's3'], '--s3-bucket is required when --heap-store or --fs-store is s3'],
    [['--http-port', '70000'], ''],
    [['--heap-store', 'dir', '--heap-memory-max', '3000', '--heap-memory-ceiling', '4096'], '--heap-memory-max 3000 is above 2048, the largest heap the QuickJS engine (used with --heap-store) can address'],
    [['--heap-memory-max', '3000'], '--heap-memory-max (3000) must not be greater than --heap-memory-ceiling (1024)'],
    [['--heap-memory-max', '65', '--heap-memory-ceiling', '64'], '--heap-memory-max (65) must not be greater than --heap-memory-ceiling (64)'],
    [['--heap-memory-ceiling', '7'], "invalid --heap-memory-ceiling '7': expected an integer >= 8 (MB)"],
    [['--stateless-artifact-tools'], '--stateless-artifact-tools requires --stateless'],
  ];
  const results = await Promise.all(cases.map(([args]) => runOnce(args)));
  for (const [i, [args, message]] of cases.entries()) {
    const r = results[i]!;
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stdout, '');
    if (message === '') assert.match(r.stderr, /^runjs: .*--http-port.*\n$/);
    else assert.equal(r.stderr, `runjs: ${message}\n`);
  }
});

test('an unreachable or empty key set aborts the start (exit 1), naming the URL', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/jwks.json`;
  const unreachable = await runOnce(['--http-port', String(await freePort()), '--bind-host', '127.0.0.1', '--jwks-url', url]);
  assert.equal(unreachable.code, 1);
  assert.equal(unreachable.stdout, '');
  assert.ok(unreachable.stderr.startsWith(`runjs: cannot load the JWT key set from --jwks-url ${url}: `), unreachable.stderr);

  const empty = createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"keys":[]}'); });
  await new Promise<void>((r) => empty.listen(0, '127.0.0.1', r));
  const emptyUrl = `http://127.0.0.1:${(empty.address() as AddressInfo).port}/jwks.json`;
  try {
    const r = await runOnce(['--http-port', String(await freePort()), '--bind-host', '127.0.0.1', '--jwks-url', emptyUrl], ENV);
    assert.deepEqual([r.code, r.stderr], [1, `runjs: cannot load the JWT key set from --jwks-url ${emptyUrl}: The JWKS endpoint did not contain any keys\n`]);
  } finally {
    await new Promise((r) => empty.close(r));
  }
});

test('a port in use aborts the start (exit 1)', async () => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const port = (taken.address() as AddressInfo).port;
  const db = mkdtempSync(join(tmpdir(), 'runjs-port-'));
  try {
    const r = await runOnce(['--http-port', String(port), '--bind-host', '127.0.0.1', '--max-concurrent-executions', '1', '--session-db-path', db]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^runjs: cannot listen on 127\\.0\\.0\\.1:${port}: listen EADDRINUSE`, 'm'));
  } finally {
    taken.close();
    rmSync(db, { recursive: true, force: true });
  }
});

test('PORT selects Streamable HTTP when no port flag is given; --bind-host :: is dual-stack', async () => {
  const port = await freePort();
  const s = await startServer([], { env: { ...ENV, PORT: String(port) }, noPortFlag: true, bindHost: '::' });
  try {
    assert.equal(s.port, port);
    assert.match(s.stderr(), new RegExp(`^runjs: listening: MCP at http://localhost:${port}/mcp, `, 'm'));
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/version`)).status, 200, 'IPv4');
    assert.equal((await fetch(`http://[::1]:${port}/api/version`)).status, 200, 'IPv6');
  } finally {
    assert.equal(await s.stop(), 0);
  }
});
