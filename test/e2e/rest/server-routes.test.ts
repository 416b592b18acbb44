// Capabilities, version, the CLI index and downloads, unknown routes (404), wrong methods (405),
// and the error mapping (RunjsError status, internal errors → 500 with the detail on stderr).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { RunjsError } from '../../../shared/errors.ts';
import { packageVersion, type ExecutionsApi } from '../../../supervisor/rest/index.ts';
import { call, serve, startHarness, TEST_VERSION, type Harness, type Served } from './rest-harness.ts';

let h: Harness;
/** A second listener: --public-url set and one CLI binary embedded. */
let pub: Served;
/** A third: an execution service that fails in the ways the real one rarely does. */
let faulty: Served;
const faultyLog: string[] = [];
const BINARY = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 255]);

before(async () => {
  h = await startHarness();
  pub = await serve({
    executions: h.service, version: TEST_VERSION, maxRequestBody: 1024,
    capabilities: () => ({ filesystem: true, heap: true, sessions: true }),
    publicBaseUrl: 'https://runjs.example.com/',
    cliBinary: (p) => (p === 'linux-x86_64' ? BINARY : undefined),
  });
  const broken: ExecutionsApi = {
    submit: () => { throw new RunjsError('QUEUE_FULL', 7); },
    get: () => { throw new Error('boom: secret detail'); },
    list: () => { throw new TypeError('cannot read properties of undefined'); },
    cancel: () => ({ ok: true }),
    output: () => { throw new RunjsError('EXECUTION_NOT_FOUND', 'x'); },
    wait: () => Promise.reject(new Error('not used')),
    decisions: () => { throw new Error('not used'); },
  };
  faulty = await serve({
    executions: broken, version: TEST_VERSION, maxRequestBody: 1024,
    capabilities: () => { throw new Error('capabilities exploded'); },
    log: (line) => faultyLog.push(line),
  });
});
after(async () => { await pub.close(); await faulty.close(); await h.shutdown(); });

test('GET /api/capabilities and /api/version', async () => {
  assert.deepEqual((await call(h.base, 'GET', '/api/capabilities')).body, { filesystem: false, heap: false, sessions: false });
  assert.deepEqual((await call(pub.base, 'GET', '/api/capabilities')).body, { filesystem: true, heap: true, sessions: true });
  const v = await call(h.base, 'GET', '/api/version');
  assert.deepEqual({ status: v.status, body: v.body }, { status: 200, body: { version: TEST_VERSION } });
  assert.equal(v.headers.get('content-type'), 'application/json; charset=utf-8');
  // The server assembly passes packageVersion(): package.json's version.
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(packageVersion(), pkg.version);
});

test('GET /api/cli: all three platforms, absolute URLs on this server, none embedded', async () => {
  const r = await call(h.base, 'GET', '/api/cli');
  assert.deepEqual(r.body, {
    version: TEST_VERSION,
    assets: ['linux-x86_64', 'linux-aarch64', 'macos-aarch64'].map((platform) => ({ platform, url: `${h.base}/api/cli/${platform}`, available: false })),
  });
});

test('GET /api/cli: URLs follow the Host header, or --public-url when set', async () => {
  const viaHost = (host: string): Promise<{ assets: { url: string }[] }> => new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: h.port, path: '/api/cli', headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve(JSON.parse(text) as { assets: { url: string }[] }));
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal((await viaHost('runjs.internal:8080')).assets[0]!.url, 'http://runjs.internal:8080/api/cli/linux-x86_64');
  assert.equal((await viaHost('[::1]:3000')).assets[2]!.url, 'http://[::1]:3000/api/cli/macos-aarch64');
  // A Host that is not a plain host[:port] is not echoed into URLs.
  assert.equal((await viaHost('evil.example/x?')).assets[0]!.url, `${h.base}/api/cli/linux-x86_64`);

  const r = await call(pub.base, 'GET', '/api/cli');
  assert.deepEqual((r.body as { assets: unknown[] }).assets, [
    { platform: 'linux-x86_64', url: 'https://runjs.example.com/api/cli/linux-x86_64', available: true },
    { platform: 'linux-aarch64', url: 'https://runjs.example.com/api/cli/linux-aarch64', available: false },
    { platform: 'macos-aarch64', url: 'https://runjs.example.com/api/cli/macos-aarch64', available: false },
  ]);
});

test('GET /api/cli/{platform}: 404 for an unknown platform or a binary not embedded; 200 bytes when embedded', async () => {
  const cases: [string, string][] = [
    ['windows-x86_64', "Unknown platform 'windows-x86_64'. Valid platforms: linux-x86_64, linux-aarch64, macos-aarch64"],
    ['LINUX-X86_64', "Unknown platform 'LINUX-X86_64'. Valid platforms: linux-x86_64, linux-aarch64, macos-aarch64"],
    ['linux-x86_64', "CLI binary for 'linux-x86_64' is not embedded in this build"],
    ['linux-aarch64', "CLI binary for 'linux-aarch64' is not embedded in this build"],
    ['macos-aarch64', "CLI binary for 'macos-aarch64' is not embedded in this build"],
  ];
  for (const [platform, error] of cases) {
    const r = await call(h.base, 'GET', `/api/cli/${platform}`);
    assert.deepEqual({ status: r.status, body: r.body }, { status: 404, body: { error } }, platform);
  }
  const res = await fetch(`${pub.base}/api/cli/linux-x86_64`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  assert.equal(res.headers.get('content-disposition'), 'attachment; filename="runjs-cli-linux-x86_64"');
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), BINARY);
});

test('unknown /api routes are 404, wrong methods 405 with Allow, OPTIONS 204, HEAD like GET', async () => {
  const cases: [string, string, number, string, string | null][] = [
    ['GET', '/api/nope', 404, 'No API route GET /api/nope', null],
    ['GET', '/api/executions/a/b/c', 404, 'No API route GET /api/executions/a/b/c', null],
    ['GET', '/api/Version', 404, 'No API route GET /api/Version', null],
    ['POST', '/api/nothing-here', 404, 'No API route POST /api/nothing-here', null],
    ['POST', '/api/artifacts', 405, 'Method POST is not allowed on /api/artifacts (allowed: GET, HEAD, OPTIONS)', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/executions/%E0%A4%A', 404, 'Malformed URL: a path segment is not valid percent-encoded UTF-8', null],
    ['DELETE', '/api/version', 405, 'Method DELETE is not allowed on /api/version (allowed: GET, HEAD, OPTIONS)', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/exec', 405, 'Method GET is not allowed on /api/exec (allowed: POST, OPTIONS)', 'POST, OPTIONS'],
    ['PUT', '/api/executions/x/cancel', 405, 'Method PUT is not allowed on /api/executions/x/cancel (allowed: POST, OPTIONS)', 'POST, OPTIONS'],
  ];
  for (const [method, path, status, error, allow] of cases) {
    const r = await call(h.base, method, path);
    assert.deepEqual({ status: r.status, body: r.body, allow: r.headers.get('allow') }, { status, body: { error }, allow }, `${method} ${path}`);
  }
  const options = await fetch(`${h.base}/api/executions`, { method: 'OPTIONS' });
  assert.deepEqual([options.status, options.headers.get('allow'), await options.text()], [204, 'GET, HEAD, OPTIONS', '']);
  const head = await fetch(`${h.base}/api/version`, { method: 'HEAD' });
  assert.deepEqual([head.status, head.headers.get('content-type'), await head.text()], [200, 'application/json; charset=utf-8', '']);
});

test('responses are never cacheable', async () => {
  for (const path of ['/api/executions', '/api/nope', '/api/cli/x']) {
    const res = await fetch(h.base + path);
    await res.arrayBuffer();
    assert.equal(res.headers.get('cache-control'), 'no-store', path);
  }
});

test('error mapping: a RunjsError keeps its status; anything else is 500 "internal error", detail logged', async () => {
  const queueFull = await call(faulty.base, 'POST', '/api/exec', { body: '1', headers: { 'content-type': 'text/plain' } });
  assert.deepEqual({ status: queueFull.status, body: queueFull.body }, {
    status: 503, body: { error: 'Too many executions waiting: the queue holds at most 7 (see --max-queued-executions)' },
  });
  const notFound = await call(faulty.base, 'GET', '/api/executions/x/output');
  assert.deepEqual({ status: notFound.status, body: notFound.body }, { status: 404, body: { error: "Execution 'x' not found" } });

  for (const [path, detail] of [['/api/executions/abc', 'boom: secret detail'], ['/api/executions', 'cannot read properties of undefined'], ['/api/capabilities', 'capabilities exploded']] as const) {
    faultyLog.length = 0;
    const r = await call(faulty.base, 'GET', path);
    assert.deepEqual({ status: r.status, body: r.body }, { status: 500, body: { error: 'internal error' } }, path);
    assert.equal(faultyLog.length, 1, path);
    assert.ok(faultyLog[0]!.startsWith(`runjs: GET ${path} failed: `) && faultyLog[0]!.includes(detail), faultyLog[0]);
  }
});

test('without a log option, internal errors go to stderr, never stdout', async () => {
  const boom: ExecutionsApi = { ...({} as ExecutionsApi), get: () => { throw new Error('to stderr please'); } };
  const s = await serve({ executions: boom, version: TEST_VERSION, maxRequestBody: 1024, capabilities: () => ({ filesystem: false, heap: false, sessions: false }) });
  const seen = { stdout: '', stderr: '' };
  // stdout passes through (the test runner may use it); the expected stderr line is swallowed.
  const spy = (stream: NodeJS.WriteStream, key: 'stdout' | 'stderr') => {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      seen[key] += String(chunk);
      return key === 'stderr' && String(chunk).includes('to stderr please') ? true : original(chunk, ...rest);
    }) as typeof stream.write;
    return () => { stream.write = original as typeof stream.write; };
  };
  const restore = [spy(process.stdout, 'stdout'), spy(process.stderr, 'stderr')];
  try {
    assert.equal((await call(s.base, 'GET', '/api/executions/x')).status, 500);
  } finally {
    for (const r of restore) r();
    await s.close();
  }
  assert.ok(seen.stderr.includes('to stderr please'), seen.stderr);
  assert.ok(!seen.stdout.includes('to stderr please'));
});
