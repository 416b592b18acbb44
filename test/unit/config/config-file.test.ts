import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validFileKeys } from '../../../supervisor/config/config-file.ts';
import { assertLoadError, load, tempDir, writeFile } from './helpers.ts';

describe('config file: TOML', () => {
  test('keys with dashes or underscores, native values, flag-style strings, arrays and sections', () => {
    const dir = tempDir();
    writeFile(dir, 'runjs.toml', [
      'http_port = 8080',
      'execution-timeout = "45"',
      'max_request_body = "2m"',
      'max_output_bytes = 4096',
      'stateless = true',
      'allowed_hosts = ["a.example", "b.example,c.example"]',
      'allowed-origins = "https://x.example"',
      'session_db_path = "data/sessions"',
      'mcp_server = ["one=sse:https://one.example/sse"]',
      '',
      '[policies.fetch]',
      'mode = "any"',
      '',
      '[[fetch_headers]]',
      'host = "api.example.com"',
      '[fetch_headers.headers]',
      'Authorization = "Bearer t"',
      '',
      '[wasm]',
      'hello = "/w/hello.wasm"',
      '',
      '[[mcp_servers]]',
      'name = "files"',
      'transport = "stdio"',
      'command = "npx"',
      '',
      '[sandbox]',
      'version = "0.1.0"',
    ].join('\n'));
    const config = load(['--config', 'runjs.toml'], {}, dir);
    assert.equal(config.config, `${dir}/runjs.toml`);
    assert.equal(config.httpPort, 8080);
    assert.equal(config.executionTimeout, 45);
    assert.equal(config.maxRequestBody, 2 * 1024 * 1024);
    assert.equal(config.maxOutputBytes, 4096);
    assert.equal(config.stateless, true);
    assert.deepEqual(config.allowedHosts, ['a.example', 'b.example', 'c.example']);
    assert.deepEqual(config.allowedOrigins, ['https://x.example']);
    assert.equal(config.sessionDbPath, `${dir}/data/sessions`);
    assert.equal(config.fsDir, `${dir}/data/sessions/fs-blobs`);
    assert.deepEqual(config.mcpServer, ['one=sse:https://one.example/sse']);
    assert.deepEqual(config.policiesJson, { fetch: { mode: 'any' } });
    assert.deepEqual(config.fetchHeaderConfig, [{ host: 'api.example.com', headers: { Authorization: 'Bearer t' } }]);
    assert.deepEqual(config.wasmConfig, { hello: '/w/hello.wasm' });
    assert.deepEqual(config.mcpConfig, [{ name: 'files', transport: 'stdio', command: 'npx' }]);
    assert.deepEqual(config.sandboxManifest, { version: '0.1.0' });
  });

  test('integers stay numbers (top level and in sections); a quoted date is a plain string', () => {
    const dir = tempDir();
    writeFile(dir, 'c.toml', [
      'http_port = 8080',
      'session_id = "1979-05-27"',
      '[wasm.image]',
      'path = "/w/image.wasm"',
      'max_memory_bytes = 33554432',
    ].join('\n'));
    const config = load(['--config=c.toml'], {}, dir);
    assert.equal(config.httpPort, 8080);
    assert.equal(config.sessionId, '1979-05-27');
    assert.deepEqual(config.wasmConfig, { image: { path: '/w/image.wasm', max_memory_bytes: 33554432 } });
  });

  test('a relative --config path and RUNJS_CONFIG resolve against cwd', () => {
    const dir = tempDir();
    writeFile(dir, 'c.toml', 'execution_timeout = 7\n');
    assert.equal(load([], { RUNJS_CONFIG: 'c.toml' }, dir).executionTimeout, 7);
    assert.equal(load(['--config=./c.toml'], {}, dir).executionTimeout, 7);
    // The flag wins over the variable.
    writeFile(dir, 'd.toml', 'execution_timeout = 8\n');
    assert.equal(load(['--config=d.toml'], { RUNJS_CONFIG: 'c.toml' }, dir).executionTimeout, 8);
  });

  test('inline JSON and JSON paths for json-valued keys', () => {
    const dir = tempDir();
    writeFile(dir, 'p.json', '{"fetch":{"mode":"all"}}');
    writeFile(dir, 'c.toml', 'policies_json = "p.json"\nmcp_config = \'[{"name":"x","transport":"http","url":"http://127.0.0.1:1/mcp"}]\'\n');
    const config = load(['--config=c.toml'], {}, dir);
    assert.deepEqual(config.policiesJson, { fetch: { mode: 'all' } });
    assert.deepEqual(config.mcpConfig, [{ name: 'x', transport: 'http', url: 'http://127.0.0.1:1/mcp' }]);
  });
});

describe('config file: JSON', () => {
  test('loads settings and sections', () => {
    const dir = tempDir();
    writeFile(dir, 'c.json', JSON.stringify({
      'sse-port': 9000,
      heap_memory_max: '64',
      peers: ['n2@10.0.0.2:9000'],
      policies: { fetch: { mode: 'all' } },
    }));
    const config = load(['--config=c.json'], {}, dir);
    assert.equal(config.ssePort, 9000);
    assert.equal(config.heapMemoryMax, 64);
    assert.deepEqual(config.peers, ['n2@10.0.0.2:9000']);
    assert.deepEqual(config.policiesJson, { fetch: { mode: 'all' } });
  });
});

describe('config file errors', () => {
  test('unknown key: names it, suggests a near miss, lists every valid key', () => {
    const dir = tempDir();
    const file = writeFile(dir, 'c.toml', 'heap_stor = "dir"\n');
    assertLoadError(
      `unknown config key 'heap_stor' in ${file} (did you mean 'heap_store'?); valid keys: ${validFileKeys().join(', ')}`,
      ['--config=c.toml'], {}, dir);
    const other = writeFile(dir, 'd.json', '{"colour": 1}');
    assertLoadError(`unknown config key 'colour' in ${other}; valid keys: ${validFileKeys().join(', ')}`,
      ['--config=d.json'], {}, dir);
  });

  test('the valid-key list holds flag keys and sections, but no CLI-only or unavailable keys', () => {
    const keys = validFileKeys();
    assert.equal(keys.length, 69);
    assert.deepEqual(keys.slice(0, 6),
      ['advertise_addr', 'allow_external_modules', 'allow_run_js_file', 'allowed_hosts', 'allowed_origins', 'bind_host']);
    for (const key of ['wasm', 'mcp_servers', 'fetch_headers', 'policies', 'sandbox', 'heap_store', 'log_level']) {
      assert.ok(keys.includes(key), key);
    }
    for (const key of ['config', 'print_openapi', 'help', 'version', 'wasm_module', 'wasm_modules',
      'wasm_stub_description', 'wasm_stub_descriptions']) {
      assert.ok(!keys.includes(key), key);
    }
  });

  test('unavailable keys explain why', () => {
    const dir = tempDir();
    const cases: Array<[string, string]> = [
      ['config = "other.toml"', "config key 'config' in FILE is not allowed (config files cannot chain)"],
      ['print_openapi = true', "config key 'print_openapi' in FILE is not allowed (--print-openapi is command-line only)"],
      ['wasm_modules = ["a=/a.wasm"]', "config key 'wasm_modules' in FILE is not allowed (use the [wasm] section)"],
      ['wasm-stub-descriptions = []',
        "config key 'wasm-stub-descriptions' in FILE is not allowed (use the description field of a [wasm] entry)"],
    ];
    for (const [line, message] of cases) {
      const file = writeFile(dir, 'c.toml', `${line}\n`);
      assertLoadError(message.replace('FILE', file), ['--config=c.toml'], {}, dir);
    }
  });

  test('a key set twice, including as heap-store and heap_store', () => {
    const dir = tempDir();
    const toml = writeFile(dir, 'c.toml', 'heap-store = "dir"\nheap_store = "s3"\n');
    assertLoadError(`config key 'heap_store' is set twice in ${toml} (as 'heap-store' and 'heap_store')`,
      ['--config=c.toml'], {}, dir);
    const json = writeFile(dir, 'c.json', '{"http_port": 1, "policies": {"a": {"http_port": 0}}, "http_port": 2}');
    assertLoadError(`config key 'http_port' is set twice in ${json} (as 'http_port' and 'http_port')`,
      ['--config=c.json'], {}, dir);
  });

  test('a section and its target key cannot both be set', () => {
    const dir = tempDir();
    const file = writeFile(dir, 'c.toml', 'policies_json = "{}"\n[policies]\nfetch = {}\n');
    assertLoadError(`config section 'policies' and key 'policies_json' cannot both be set (in ${file})`,
      ['--config=c.toml'], {}, dir);
    const json = writeFile(dir, 'c.json', '{"wasm": {}, "wasm-config": "{}"}');
    assertLoadError(`config section 'wasm' and key 'wasm-config' cannot both be set (in ${json})`,
      ['--config=c.json'], {}, dir);
  });

  test('wrong-shaped values name the key and the file', () => {
    const dir = tempDir();
    const file = writeFile(dir, 'c.toml', 'http_port = "abc"\n');
    assertLoadError(`invalid http_port 'abc' in ${file}: expected a TCP port number between 1 and 65535`,
      ['--config=c.toml'], {}, dir);
    writeFile(dir, 'c.toml', 'stateless = "yes"\n');
    assertLoadError(`invalid stateless 'yes' in ${file}: expected true or false`, ['--config=c.toml'], {}, dir);
    writeFile(dir, 'c.toml', 'execution_timeout = 2.5\n');
    assertLoadError(`invalid execution_timeout '2.5' in ${file}: expected an integer between 1 and 300 (seconds)`,
      ['--config=c.toml'], {}, dir);
    // A TOML float is not an integer, even when its value is whole.
    writeFile(dir, 'c.toml', 'http_port = 8080.0\n');
    assertLoadError(`invalid http_port '8080.0' in ${file}: expected a TCP port number between 1 and 65535`,
      ['--config=c.toml'], {}, dir);
    writeFile(dir, 'c.toml', 'max_request_body = 1e6\n');
    assertLoadError(`invalid max_request_body '1000000.0' in ${file}: expected a size in bytes >= 1, optionally with suffix k, m or g (e.g. 16m)`,
      ['--config=c.toml'], {}, dir);
    writeFile(dir, 'c.toml', 'execution_timeout = 30.0\n');
    assertLoadError(`invalid execution_timeout '30.0' in ${file}: expected an integer between 1 and 300 (seconds)`,
      ['--config=c.toml'], {}, dir);
    // No setting is a date: an unquoted TOML date is refused, at the top level or inside a section.
    writeFile(dir, 'c.toml', 'session_id = 1979-05-27\n');
    assertLoadError(`invalid session_id in ${file}: TOML dates and times are not accepted (got 1979-05-27); quote the value to make it a string`,
      ['--config=c.toml'], {}, dir);
    writeFile(dir, 'c.toml', '[sandbox]\nversion = 1979-05-27T07:32:00Z\n');
    assertLoadError(`invalid sandbox in ${file}: TOML dates and times are not accepted (got 1979-05-27T07:32:00.000Z); quote the value to make it a string`,
      ['--config=c.toml'], {}, dir);
    writeFile(dir, 'c.toml', 'allowed_hosts = ["ok", 3]\n');
    assertLoadError(`invalid allowed_hosts '3' in ${file}: expected a non-empty string`, ['--config=c.toml'], {}, dir);
    writeFile(dir, 'c.toml', '[fetch_headers]\nhost = "x"\n');
    assertLoadError(
      `invalid fetch_headers '{"host":"x"}' in ${file}: expected a JSON array (inline, or a path to a JSON file)`,
      ['--config=c.toml'], {}, dir);
  });

  test('bad extension, missing file, unparsable file, non-object document', () => {
    const dir = tempDir();
    writeFile(dir, 'c.yaml', 'a: 1\n');
    assertLoadError(`config file ${dir}/c.yaml must have a .toml or .json extension`, ['--config=c.yaml'], {}, dir);
    assertLoadError(
      `cannot read config file ${dir}/missing.toml: ENOENT: no such file or directory, open '${dir}/missing.toml'`,
      ['--config=missing.toml'], {}, dir);
    writeFile(dir, 'bad.json', '{"a":');
    assertLoadError(
      `invalid JSON in config file ${dir}/bad.json: Unexpected end of JSON input`, ['--config=bad.json'], {}, dir);
    writeFile(dir, 'list.json', '[1]');
    assertLoadError(`config file ${dir}/list.json must contain an object of settings at the top level`,
      ['--config=list.json'], {}, dir);
    assertLoadError("invalid --config '': expected a non-empty path", ['--config='], {}, dir);
  });

  test('config-file values conflict like flags', () => {
    const dir = tempDir();
    writeFile(dir, 'c.toml', 'sse_port = 9000\n');
    assertLoadError('--http-port and --sse-port cannot be used together', ['--config=c.toml', '--http-port=8080'], {}, dir);
  });
});
