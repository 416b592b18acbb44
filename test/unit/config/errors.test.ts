import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertLoadError, load, tempDir, writeFile } from './helpers.ts';

describe('command-line syntax errors', () => {
  test('unknown flags, with a suggestion for near misses', () => {
    assertLoadError('unknown flag --hep-store (did you mean --heap-store?); see --help', ['--hep-store=dir']);
    assertLoadError('unknown flag --frobnicate; see --help', ['--frobnicate']);
  });

  test('positional arguments and single-dash flags', () => {
    assertLoadError("unexpected argument 'serve': runjs takes only --flags (see --help)", ['serve']);
    assertLoadError("unexpected argument '-h': runjs takes only --flags (see --help)", ['-h']);
    assertLoadError("unexpected argument '--': runjs takes only --flags (see --help)", ['--']);
  });

  test('missing value', () => {
    assertLoadError('--http-port needs a value (e.g. --http-port=VALUE)', ['--http-port']);
    assertLoadError('--session-id needs a value (e.g. --session-id=VALUE)', ['--session-id', '--stateless']);
  });

  test('a non-repeatable flag given twice', () => {
    assertLoadError('--http-port was given more than once', ['--http-port=1', '--http-port=2']);
  });
});

describe('environment errors', () => {
  test('unknown RUNJS_ variables are rejected by name', () => {
    assertLoadError(
      'unknown environment variable RUNJS_HEAP_STOR: there is no flag --heap-stor (did you mean RUNJS_HEAP_STORE?)',
      [], { RUNJS_HEAP_STOR: 'dir' });
    assertLoadError('unknown environment variable RUNJS_COLOUR: there is no flag --colour', [], { RUNJS_COLOUR: '' });
  });

  test('command-line-only flags have no variable', () => {
    assertLoadError('environment variable RUNJS_HELP is not supported: --help is command-line only', [],
      { RUNJS_HELP: '1' });
    assertLoadError('environment variable RUNJS_PRINT_OPENAPI is not supported: --print-openapi is command-line only',
      [], { RUNJS_PRINT_OPENAPI: 'true' });
  });

  test('variables without the prefix are none of our business', () => {
    assertLoadError('--http-port and --sse-port cannot be used together', ['--http-port=1', '--sse-port=2'],
      { HEAP_STORE: 'x', RUNJSX: 'y', runjs_heap_store: 'z' });
  });
});

describe('wrong-shaped and out-of-range values', () => {
  const port = 'expected a TCP port number between 1 and 65535';
  test('ports', () => {
    assertLoadError(`invalid --http-port 'abc': ${port}`, ['--http-port=abc']);
    assertLoadError(`invalid --http-port '0': ${port}`, ['--http-port=0']);
    assertLoadError(`invalid --sse-port '65536': ${port}`, ['--sse-port', '65536']);
    assertLoadError(`invalid --http-port '80.5': ${port}`, ['--http-port=80.5']);
    assertLoadError(`invalid RUNJS_HTTP_PORT 'x': ${port}`, [], { RUNJS_HTTP_PORT: 'x' });
  });

  test('integers with ranges', () => {
    const timeout = 'expected an integer between 1 and 300 (seconds)';
    assertLoadError(`invalid --execution-timeout '0': ${timeout}`, ['--execution-timeout=0']);
    assertLoadError(`invalid --execution-timeout '301': ${timeout}`, ['--execution-timeout=301']);
    assertLoadError(`invalid --execution-timeout '30s': ${timeout}`, ['--execution-timeout=30s']);
    assertLoadError("invalid --max-concurrent-executions '0': expected an integer >= 1",
      ['--max-concurrent-executions=0']);
    assertLoadError("invalid --max-queued-executions '-1': expected an integer >= 0", ['--max-queued-executions=-1']);
    assertLoadError("invalid --execution-retention '0': expected an integer >= 1", ['--execution-retention=0']);
  });

  test('sizes, enums, urls, patterns', () => {
    assertLoadError(
      "invalid --max-request-body '16mb': expected a size in bytes >= 1, optionally with suffix k, m or g (e.g. 16m)",
      ['--max-request-body=16mb']);
    assertLoadError("invalid --log-level 'trace': expected one of error, warn, info, debug", ['--log-level=trace']);
    assertLoadError("invalid --heap-store 'disk': expected one of none, dir, s3", ['--heap-store=disk']);
    assertLoadError("invalid --jwks-url 'not a url': expected an absolute http(s) URL", ['--jwks-url=not a url']);
    assertLoadError("invalid JWKS_URL 'ftp://x/jwks': expected an absolute http(s) URL", [], { JWKS_URL: 'ftp://x/jwks' });
    assertLoadError("invalid --allowed-origins 'app.example.com': expected an origin (scheme://host[:port]) or null",
      ['--allowed-origins=https://ok.example,app.example.com']);
    assertLoadError("invalid --peers 'n2@host': expected a value of the form [ID@]HOST:PORT", ['--peers=n2@host']);
    assertLoadError("invalid --wasm-module '/a.wasm': expected a value of the form NAME=PATH[:LIMIT]",
      ['--wasm-module=/a.wasm']);
    assertLoadError("invalid --mcp-stub-prefix 'a.b': expected letters, digits, _ and - only (may be empty)",
      ['--mcp-stub-prefix=a.b']);
    assertLoadError("invalid --bind-host '': expected a non-empty string", ['--bind-host=']);
  });

  test('JSON-valued flags', () => {
    assertLoadError(
      "invalid --policies-json: not valid JSON (Expected property name or '}' in JSON at position 1 (line 1 column 2))",
      ['--policies-json={x']);
    assertLoadError("invalid --policies-json '[]': expected a JSON object (inline, or a path to a JSON file)",
      ['--policies-json=[]']);
    assertLoadError("invalid --fetch-header-config '{}': expected a JSON array (inline, or a path to a JSON file)",
      ['--fetch-header-config={}']);
    assertLoadError(
      "cannot read file /work/nope.json given by --wasm-config: ENOENT: no such file or directory, open '/work/nope.json'",
      ['--wasm-config=nope.json']);
  });
});

describe('conflicting flags', () => {
  test('an empty --allowed-hosts (which would 403 every HTTP request) is a startup error, whatever the source', () => {
    const message = '--allowed-hosts needs at least one host (use * for any)';
    assertLoadError(message, ['--allowed-hosts=']);
    assertLoadError(message, ['--allowed-hosts=,', '--http-port=8080']);
    assertLoadError(message, ['--allowed-hosts', ' , ']);
    assertLoadError(message, [], { RUNJS_ALLOWED_HOSTS: ',' });
    const dir = tempDir();
    writeFile(dir, 'c.toml', 'allowed_hosts = []\n');
    assertLoadError(message, ['--config=c.toml'], {}, dir);
    writeFile(dir, 'c.json', '{"allowed-hosts": ","}');
    assertLoadError(message, ['--config=c.json'], {}, dir);
    assert.deepEqual(load(['--allowed-hosts=*']).allowedHosts, ['*']);
  });

  test('both transports', () => {
    assertLoadError('--http-port and --sse-port cannot be used together', ['--http-port=8080', '--sse-port=8081']);
    assertLoadError('--http-port and --sse-port cannot be used together', ['--sse-port=8081'],
      { RUNJS_HTTP_PORT: '8080' });
  });

  test('cluster mode needs a transport', () => {
    const message = 'Cluster mode requires --http-port or --sse-port (stdio transport is not supported in cluster mode)';
    assertLoadError(message, ['--cluster-port=9000']);
    assertLoadError(message, [], { RUNJS_CLUSTER_PORT: '9000' });
  });

  test('--metadata-only', () => {
    assertLoadError('--metadata-only requires --cluster-port', ['--metadata-only']);
    assertLoadError('--metadata-only cannot be used with --http-port',
      ['--metadata-only', '--cluster-port=9000', '--http-port=8080']);
    assertLoadError('--metadata-only cannot be used with --sse-port',
      ['--metadata-only', '--cluster-port=9000', '--sse-port=8080']);
    assertLoadError('--metadata-only cannot be used with JS-execution setting --heap-memory-max',
      ['--metadata-only', '--cluster-port=9000', '--heap-memory-max=64']);
    assertLoadError('--metadata-only cannot be used with JS-execution setting --wasm-module',
      ['--metadata-only', '--cluster-port=9000', '--wasm-module=a=/a.wasm']);
    assertLoadError('--metadata-only cannot be used with JS-execution setting --stateless',
      ['--metadata-only', '--cluster-port=9000'], { RUNJS_STATELESS: 'false' });
  });

  test('--stateless-artifact-tools needs --stateless', () => {
    assertLoadError('--stateless-artifact-tools requires --stateless', ['--stateless-artifact-tools']);
    assertLoadError('--stateless-artifact-tools requires --stateless', ['--stateless-artifact-tools', '--stateless=false']);
    assertLoadError('--stateless-artifact-tools requires --stateless', [], { RUNJS_STATELESS_ARTIFACT_TOOLS: 'true' });
    assertLoadError('--metadata-only cannot be used with JS-execution setting --stateless-artifact-tools',
      ['--metadata-only', '--cluster-port=9000', '--stateless-artifact-tools=false']);
  });

  test('--heap-memory-max above --heap-memory-ceiling', () => {
    assertLoadError('--heap-memory-max (1025) must not be greater than --heap-memory-ceiling (1024)', ['--heap-memory-max=1025']);
    assertLoadError('--heap-memory-max (65) must not be greater than --heap-memory-ceiling (64)',
      ['--heap-memory-max=65', '--heap-memory-ceiling=64']);
    assertLoadError('--heap-memory-max (65) must not be greater than --heap-memory-ceiling (64)', [],
      { RUNJS_HEAP_MEMORY_MAX: '65', RUNJS_HEAP_MEMORY_CEILING: '64' });
    assertLoadError("invalid --heap-memory-ceiling '7': expected an integer >= 8 (MB)", ['--heap-memory-ceiling=7']);
  });

  test('--session-fork-from', () => {
    assertLoadError('--session-fork-from requires --session-id (the new session to create)',
      ['--session-fork-from=base', '--heap-store=dir']);
    assertLoadError("--session-fork-from 'base' must differ from --session-id 'base'",
      ['--session-fork-from=base', '--session-id=base', '--heap-store=dir']);
    assertLoadError('--session-fork-from requires heap and/or fs persistence (set --heap-store and/or --fs-store)',
      ['--session-fork-from=base', '--session-id=new']);
  });

  test('heap persistence excludes WASM modules; s3 needs a bucket; election window', () => {
    assertLoadError("--wasm-module/--wasm-config is incompatible with heap persistence (--heap-store other than 'none'): " +
      'heap snapshots disable WebAssembly', ['--heap-store=dir', '--wasm-module=a=/a.wasm']);
    assertLoadError('--s3-bucket is required when --heap-store or --fs-store is s3', ['--fs-store=s3']);
    assertLoadError('--election-timeout-min (600) must not be greater than --election-timeout-max (500)',
      ['--election-timeout-min=600']);
  });
});
