import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError } from '../../../supervisor/config/config-error.ts';
import { FLAGS } from '../../../supervisor/config/flag-table.ts';
import { assertImplemented } from '../../../supervisor/config/unsupported.ts';
import { load, tempDir, writeFile } from './helpers.ts';

function assertNotSupported(message: string, argv: readonly string[], env = {}, cwd = '/work'): void {
  assert.throws(() => assertImplemented(load(argv, env, cwd)), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.message, message);
    return true;
  });
}

describe('assertImplemented', () => {
  test('defaults and implemented flags pass', () => {
    assertImplemented(load());
    assertImplemented(load(['--http-port=8080', '--stateless', '--heap-memory-max=64', '--log-level=debug',
      '--max-request-body=1m', '--instructions=x', '--allowed-hosts=*', '--jwks-url=https://a.example/jwks']));
  });

  test('an unimplemented flag set from any source is refused', () => {
    assertNotSupported('--harden-freeze-ops is not supported yet', [], { RUNJS_HARDEN_FREEZE_OPS: 'true' });
    const dir = tempDir();
    writeFile(dir, 'c.toml', '[sandbox]\nread = ["/srv"]\n');
    assertNotSupported('--sandbox-manifest is not supported yet', ['--config=c.toml'], {}, dir);
    assertNotSupported('--cluster-port is not supported yet', ['--cluster-port=9000', '--http-port=8080']);
    assertNotSupported('--sandbox-manifest is not supported yet', ['--policies-json={}', '--fetch-header-config=[]', '--mcp-config=[]', '--wasm-config={}', '--sandbox-manifest={}']);
  });

  test('the first offending flag in table order is named', () => {
    assertNotSupported('--sandbox-manifest is not supported yet',
      ['--harden-freeze-ops', '--public-url=https://x.example', '--sandbox-manifest={}']);
  });

  test('setting an unimplemented flag to its default is allowed', () => {
    assertImplemented(load(['--heap-store=none', '--fs-dir=/tmp/mcp-v8-sessions/fs-blobs', '--wasm-stubs=false',
      '--peers=', '--heartbeat-interval=100']));
  });

  test('implemented is true exactly for the flags that work today', () => {
    const implemented = FLAGS.filter((f) => f.implemented).map((f) => f.name).sort();
    assert.deepEqual(implemented, [
      'allow-external-modules', 'allow-run-js-file', 'allowed-hosts', 'allowed-origins', 'bind-host', 'cache-dir', 'config', 'execution-retention', 'execution-timeout',
      'fetch-ca-file', 'fetch-default', 'fetch-header', 'fetch-header-config', 'fs-dir', 'fs-labels-db', 'fs-passthrough', 'fs-store', 'heap-dir', 'heap-memory-ceiling', 'heap-memory-max', 'heap-store', 'help', 'http-port', 'instructions', 'jwks-url', 'log-level',
      'max-concurrent-executions', 'max-output-bytes', 'max-queued-executions', 'max-request-body', 'mcp-config', 'mcp-server', 'mcp-stub-prefix', 'mcp-stubs', 'policies-json', 'print-openapi',
      'public-url', 'run-js-description', 's3-bucket', 's3-endpoint', 's3-force-path-style',
      'session-db-path', 'session-fork-from', 'session-id', 'sse-port', 'stateless', 'stateless-artifact-tools', 'version',
      'wasm-config', 'wasm-default-max-memory', 'wasm-module', 'wasm-stub-description', 'wasm-stub-prefix', 'wasm-stubs',
    ]);
  });
});
