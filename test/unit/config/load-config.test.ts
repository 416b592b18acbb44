import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, test } from 'node:test';
import { explicitFlagsOf, sourceOf } from '../../../supervisor/config/load-config.ts';
import { assertLoadError, load, tempDir, writeFile } from './helpers.ts';

const MiB = 1024 * 1024;

describe('defaults', () => {
  test('an empty command line and environment yields exactly the documented defaults', () => {
    assert.deepEqual({ ...load() }, {
      help: false,
      version: false,
      printOpenapi: false,
      logLevel: 'info',
      bindHost: '0.0.0.0',
      allowedHosts: ['localhost', '127.0.0.1', '::1'],
      allowedOrigins: [],
      maxRequestBody: 16 * MiB,
      stateless: false,
      sessionDbPath: '/tmp/mcp-v8-sessions',
      heapMemoryMax: 8,
      heapMemoryCeiling: 1024,
      executionTimeout: 30,
      maxConcurrentExecutions: availableParallelism(),
      maxQueuedExecutions: 1000,
      executionRetention: 1000,
      maxOutputBytes: 16 * MiB,
      allowExternalModules: false,
      allowRunJsFile: false,
      statelessArtifactTools: false,
      heapStore: 'none',
      heapDir: '/tmp/mcp-v8-heaps',
      fsStore: 'none',
      fsDir: '/tmp/mcp-v8-sessions/fs-blobs',
      fsLabelsDb: '/tmp/mcp-v8-sessions/fs-labels',
      fsPassthrough: false,
      s3ForcePathStyle: false,
      fetchDefault: 'deny',
      fetchHeader: [],
      mcpServer: [],
      mcpStubs: false,
      mcpStubPrefix: 'runjs__',
      wasmModule: [],
      wasmDefaultMaxMemory: 16 * MiB,
      wasmStubs: false,
      wasmStubPrefix: 'runjs__',
      wasmStubDescription: [],
      hardenFreezeOps: false,
      hardenNeutralizeProxyDetails: false,
      hardenNeutralizeIntrospection: false,
      hardenRemoveBootstrap: false,
      hardenRemoveSharedMemory: false,
      metadataOnly: false,
      nodeId: 'node1',
      peers: [],
      joinAsLearner: false,
      heartbeatInterval: 100,
      electionTimeoutMin: 300,
      electionTimeoutMax: 500,
    });
    assert.deepEqual([...explicitFlagsOf(load())], []);
  });

  test('derived defaults follow the values they derive from', () => {
    const config = load(['--session-db-path', 'db', '--mcp-server=x=http:https://up.example']);
    assert.equal(config.sessionDbPath, '/work/db');
    assert.equal(config.fsDir, '/work/db/fs-blobs');
    assert.equal(config.fsLabelsDb, '/work/db/fs-labels');
    assert.equal(config.mcpStubs, true);
    assert.equal(config.wasmStubs, false);
    assert.equal(load(['--wasm-config={"a":"/a.wasm"}']).wasmStubs, true);
  });

  test('--heap-memory-max below the effective minimum of 8 is accepted and raised to 8', () => {
    assert.equal(load(['--heap-memory-max=1']).heapMemoryMax, 8);
    assert.equal(load(['--heap-memory-max=7']).heapMemoryMax, 8);
    assert.equal(load(['--heap-memory-max=9']).heapMemoryMax, 9);
    assertLoadError("invalid --heap-memory-max '0': expected an integer >= 1 (MB)", ['--heap-memory-max=0']);
  });

  test('--heap-memory-max may equal --heap-memory-ceiling', () => {
    assert.equal(load(['--heap-memory-max=1024']).heapMemoryMax, 1024);
    const atCeiling = load(['--heap-memory-max=64', '--heap-memory-ceiling=64']);
    assert.deepEqual([atCeiling.heapMemoryMax, atCeiling.heapMemoryCeiling], [64, 64]);
    assert.equal(load(['--heap-memory-ceiling=8', '--heap-memory-max=1']).heapMemoryMax, 8);
  });
});

describe('precedence: flag > env > file > default', () => {
  test('each source wins over the ones below it, per setting', () => {
    const dir = tempDir();
    writeFile(dir, 'c.toml', 'execution_timeout = 10\nheap_memory_max = 20\nlog_level = "warn"\n');
    const env = { RUNJS_CONFIG: 'c.toml', RUNJS_EXECUTION_TIMEOUT: '11', RUNJS_HEAP_MEMORY_MAX: '21' };
    const config = load(['--execution-timeout=12'], env, dir);
    assert.equal(config.executionTimeout, 12); // flag over env and file
    assert.equal(config.heapMemoryMax, 21); // env over file
    assert.equal(config.logLevel, 'warn'); // file over default
    assert.equal(config.maxQueuedExecutions, 1000); // default
    assert.deepEqual(sourceOf(config, 'execution-timeout'), { kind: 'cli' });
    assert.deepEqual(sourceOf(config, 'heap-memory-max'), { kind: 'env', name: 'RUNJS_HEAP_MEMORY_MAX' });
    assert.deepEqual(sourceOf(config, 'log-level'), { kind: 'file', key: 'log_level', path: `${dir}/c.toml` });
    assert.deepEqual(sourceOf(config, 'max-queued-executions'), { kind: 'default' });
    assert.deepEqual([...explicitFlagsOf(config)].sort(), [
      'config', 'execution-timeout', 'heap-memory-max', 'log-level',
    ]);
  });

  test('a list from a higher source replaces, not extends, a lower one', () => {
    const dir = tempDir();
    writeFile(dir, 'c.json', '{"allowed_hosts": ["file.example"]}');
    assert.deepEqual(load(['--config=c.json'], { RUNJS_ALLOWED_HOSTS: 'env.example' }, dir).allowedHosts, ['env.example']);
    assert.deepEqual(load(['--config=c.json', '--allowed-hosts=cli.example'], {}, dir).allowedHosts, ['cli.example']);
    assert.deepEqual(load(['--config=c.json'], {}, dir).allowedHosts, ['file.example']);
  });

  test('an empty environment variable counts as unset', () => {
    assert.equal(load([], { RUNJS_EXECUTION_TIMEOUT: '' }).executionTimeout, 30);
    assert.equal(load([], { RUNJS_SESSION_ID: '' }).sessionId, undefined);
  });

  test('--jwks-url reads RUNJS_JWKS_URL, then JWKS_URL', () => {
    assert.equal(load([], { JWKS_URL: 'https://a.example/jwks' }).jwksUrl, 'https://a.example/jwks');
    const both = { JWKS_URL: 'https://a.example/jwks', RUNJS_JWKS_URL: 'https://b.example/jwks' };
    assert.equal(load([], both).jwksUrl, 'https://b.example/jwks');
    assert.equal(load(['--jwks-url=https://c.example/jwks'], both).jwksUrl, 'https://c.example/jwks');
  });
});

describe('PORT fallback', () => {
  test('PORT sets --http-port when no port is set anywhere', () => {
    const config = load([], { PORT: '8080' });
    assert.equal(config.httpPort, 8080);
    assert.deepEqual(sourceOf(config, 'http-port'), { kind: 'env', name: 'PORT' });
  });

  test('PORT is ignored when a port is set by flag, env or file', () => {
    assert.equal(load(['--http-port=9000'], { PORT: '8080' }).httpPort, 9000);
    assert.equal(load([], { PORT: '8080', RUNJS_HTTP_PORT: '9001' }).httpPort, 9001);
    const sse = load([], { PORT: '8080', RUNJS_SSE_PORT: '9002' });
    assert.equal(sse.httpPort, undefined);
    assert.equal(sse.ssePort, 9002);
    const dir = tempDir();
    writeFile(dir, 'c.toml', 'sse_port = 9003\n');
    assert.equal(load(['--config=c.toml'], { PORT: '8080' }, dir).httpPort, undefined);
    // Not even validated when unused.
    assert.equal(load(['--http-port=9000'], { PORT: 'abc' }).httpPort, 9000);
  });

  test('an empty PORT is ignored (stdio)', () => {
    assert.equal(load([], { PORT: '' }).httpPort, undefined);
  });

  test('a PORT that is not a port number is a startup error', () => {
    const message = (v: string) => `invalid PORT '${v}': expected a TCP port number between 1 and 65535`;
    for (const value of ['abc', '80a', '0', '65536', '-1', ' 80']) assertLoadError(message(value), [], { PORT: value });
  });

  test('PORT is ignored on a --metadata-only node, which has no transport', () => {
    const config = load(['--metadata-only', '--cluster-port=9000'], { PORT: '8080' });
    assert.equal(config.httpPort, undefined);
    assert.equal(config.metadataOnly, true);
  });
});

describe('command-line syntax', () => {
  test('--flag=value and --flag value are equivalent', () => {
    assert.equal(load(['--session-id=abc']).sessionId, 'abc');
    assert.equal(load(['--session-id', 'abc']).sessionId, 'abc');
    assert.equal(load(['--session-id=a=b']).sessionId, 'a=b');
  });

  test('booleans: bare flag, =true/=false, =1/=0', () => {
    assert.equal(load(['--stateless']).stateless, true);
    assert.equal(load(['--stateless=true']).stateless, true);
    assert.equal(load(['--stateless=false']).stateless, false);
    assert.equal(load(['--stateless=1']).stateless, true);
    assert.equal(load(['--stateless=0']).stateless, false);
    assert.equal(load([], { RUNJS_STATELESS: 'true' }).stateless, true);
    assertLoadError("invalid --stateless 'yes': expected true or false", ['--stateless=yes']);
    // A bare boolean never takes the next token as its value.
    assertLoadError("unexpected argument 'false': runjs takes only --flags (see --help)", ['--stateless', 'false']);
  });

  test('comma lists split and repeat; whitespace and empty items are dropped', () => {
    assert.deepEqual(load(['--allowed-hosts=a, b,,c', '--allowed-hosts', 'd']).allowedHosts, ['a', 'b', 'c', 'd']);
    assert.deepEqual(load([], { RUNJS_ALLOWED_HOSTS: 'x,y' }).allowedHosts, ['x', 'y']);
    assert.deepEqual(load(['--allowed-origins=https://a.example,null']).allowedOrigins, ['https://a.example', 'null']);
  });

  test('--fetch-header, --mcp-server, --wasm-module, --wasm-stub-description repeat without splitting', () => {
    const rule = 'host=api.example.com,header=Authorization,value=Bearer t';
    assert.deepEqual(load(['--fetch-header', rule, `--fetch-header=${rule}`]).fetchHeader, [rule, rule]);
    const servers = ['a=stdio:node:server.js,x', 'b=http:https://b.example/mcp'];
    assert.deepEqual(load(servers.map((s) => `--mcp-server=${s}`)).mcpServer, servers);
    assert.deepEqual(load(['--wasm-module=m=/a.wasm:16m', '--wasm-module=n=/b,c.wasm']).wasmModule,
      ['m=/a.wasm:16m', 'n=/b,c.wasm']);
    assert.deepEqual(load(['--wasm-stub-description=m=Does a, b and c']).wasmStubDescription, ['m=Does a, b and c']);
  });

  test('in the environment, lists that do not split on commas take one item per line', () => {
    const env = { RUNJS_FETCH_HEADER: 'host=a.example,header=X-A,value=1\nhost=b.example,header=X-B,value=2\n' };
    assert.deepEqual(load([], env).fetchHeader,
      ['host=a.example,header=X-A,value=1', 'host=b.example,header=X-B,value=2']);
  });

  test('sizes take k/m/g suffixes (binary, any case) or raw bytes', () => {
    assert.equal(load(['--max-request-body=1k']).maxRequestBody, 1024);
    assert.equal(load(['--max-request-body=2M']).maxRequestBody, 2 * MiB);
    assert.equal(load(['--max-output-bytes=1g']).maxOutputBytes, 1024 * MiB);
    assert.equal(load(['--max-output-bytes=123']).maxOutputBytes, 123);
  });

  test('paths resolve against cwd', () => {
    assert.equal(load(['--session-db-path=rel/db'], {}, '/srv/app').sessionDbPath, '/srv/app/rel/db');
    assert.equal(load(['--session-db-path=/abs/db'], {}, '/srv/app').sessionDbPath, '/abs/db');
  });

  test('--help and --version short-circuit: a broken environment does not hide them', () => {
    const config = load(['--help'], { RUNJS_NOPE: '1', RUNJS_CONFIG: '/missing.toml' });
    assert.equal(config.help, true);
    assert.equal(config.version, false);
    assert.equal(load(['--version'], { PORT: 'abc' }).version, true);
  });

  test('--print-openapi is parsed like any other flag', () => {
    assert.equal(load(['--print-openapi']).printOpenapi, true);
  });
});

describe('result', () => {
  test('is deep-frozen: mutation throws in strict mode', () => {
    const config = load(['--allowed-hosts=a']);
    assert.ok(Object.isFrozen(config));
    assert.throws(() => {
      (config as { executionTimeout: number }).executionTimeout = 1;
    }, TypeError);
    assert.throws(() => {
      (config.allowedHosts as string[]).push('b');
    }, TypeError);
    const withJson = load(['--policies-json={"fetch":{"mode":"all"}}']);
    assert.throws(() => {
      (withJson.policiesJson as { fetch: { mode: string } }).fetch.mode = 'any';
    }, TypeError);
  });

  test('keys are the camelCase flag names; unset optional flags are absent', () => {
    const config = load(['--http-port=8080', '--run-js-description=d']);
    assert.equal(config.httpPort, 8080);
    assert.equal(config.runJsDescription, 'd');
    assert.equal('ssePort' in config, false);
    assert.equal('jwksUrl' in config, false);
  });
});
