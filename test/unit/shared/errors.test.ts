// The error registry (shared/errors.ts): every code is complete and consistent, the texts the
// interface spec fixes are exact, the statuses are the spec's, and docs/errors.md is current.
// A red pin means the surface changed, and that must be deliberate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ERRORS, EXECUTION_ERRORS, RunjsError, errorMessage, type ErrorCode, type ExecutionErrorCode } from '../../../shared/errors.ts';
import { MAX_ARTIFACT_BYTES } from '../../../shared/artifact-rules.ts';
import { HEAP_MB_FLOOR, TIMEOUT_SECS } from '../../../shared/execution-contract.ts';
import { ERROR_EXAMPLES, exampleExecutionError, exampleMessage } from '../../../scripts/error-docs.ts';

const CODES = Object.keys(ERRORS) as ErrorCode[];
const EXECUTION_CODES = Object.keys(EXECUTION_ERRORS) as ExecutionErrorCode[];
const MCP_MAPPINGS = new Set(['tool-error', 'invalid-params', 'http', 'http-json-rpc', 'none']);

test('every registry code has a status in 400-599, an MCP mapping and a message template', () => {
  for (const code of CODES) {
    const spec = ERRORS[code] as { status: unknown; mcp: unknown; jsonRpcCode?: unknown; guest?: unknown; message: unknown };
    assert.match(code, /^[A-Z][A-Z0-9_]*$/, code);
    assert.ok(Number.isInteger(spec.status) && (spec.status as number) >= 400 && (spec.status as number) <= 599, `${code}: status ${String(spec.status)}`);
    assert.ok(MCP_MAPPINGS.has(spec.mcp as string), `${code}: mcp ${String(spec.mcp)}`);
    assert.equal(typeof spec.jsonRpcCode === 'number', spec.mcp === 'http-json-rpc', `${code}: a JSON-RPC code exactly for http-json-rpc`);
    assert.ok(spec.guest === undefined || spec.guest === 'Error' || spec.guest === 'TypeError' || spec.guest === 'RangeError', `${code}: guest ${String(spec.guest)}`);
    assert.equal(typeof spec.message, 'function', code);
    const text = exampleMessage(code);
    assert.ok(typeof text === 'string' && text.length > 0, code);
  }
  assert.deepEqual(Object.keys(ERROR_EXAMPLES).sort(), [...CODES].sort());
});

test('outcome texts: each is a text or a template, and codes are unique across both tables', () => {
  for (const code of EXECUTION_CODES) {
    assert.match(code, /^[A-Z][A-Z0-9_]*$/, code);
    assert.ok(exampleExecutionError(code).length > 0, code);
  }
  const all = [...CODES, ...EXECUTION_CODES];
  assert.deepEqual(all.filter((c, i) => all.indexOf(c) !== i), []);
});

test('RunjsError carries its code, status, MCP mapping and guest class; `is` narrows by code', () => {
  const e = new RunjsError('QUEUE_FULL', 3);
  assert.ok(e instanceof Error);
  assert.deepEqual([e.name, e.code, e.status, e.mcp, e.guest, e.jsonRpcCode], ['RunjsError', 'QUEUE_FULL', 503, 'tool-error', undefined, undefined]);
  assert.equal(e.message, 'Too many executions waiting: the queue holds at most 3 (see --max-queued-executions)');
  const size = new RunjsError('ARTIFACT_PAYLOAD_TOO_LARGE', MAX_ARTIFACT_BYTES, 20_000_000);
  assert.deepEqual([size.status, size.guest], [413, 'RangeError']);
  const session = new RunjsError('MCP_SESSION_NOT_FOUND');
  assert.deepEqual([session.status, session.mcp, session.jsonRpcCode], [404, 'http-json-rpc', -32001]);
  assert.ok(RunjsError.is(e, 'QUEUE_FULL', 'INTERNAL'));
  assert.ok(!RunjsError.is(e, 'INTERNAL'));
  assert.ok(!RunjsError.is(new Error(e.message), 'QUEUE_FULL'));
});

test('execution error texts are exactly the spec\'s', () => {
  assert.equal(EXECUTION_ERRORS.OUT_OF_MEMORY, 'Out of memory: V8 heap limit exceeded. Try increasing heap_memory_max_mb.');
  assert.equal(EXECUTION_ERRORS.TIMED_OUT, 'Execution timed out: script exceeded the time limit. Try increasing execution_timeout_secs.');
  assert.equal(EXECUTION_ERRORS.CANCELLED, 'Cancelled by user');
  assert.equal(EXECUTION_ERRORS.POLLING_TIMEOUT, 'Execution did not complete within polling timeout');
  assert.equal(EXECUTION_ERRORS.TYPESCRIPT_PREFIX, 'TypeScript parse error: ');
});

test('statuses are the spec\'s (interface spec, "Status codes")', () => {
  const status = (code: ErrorCode) => ERRORS[code].status;
  // 400: malformed exec body; invalid artifact key, mime type or size (PUT /api/artifacts/{key});
  // sessions not configured; cancel of a finished execution.
  for (const c of ['INVALID_EXEC_REQUEST', 'INVALID_JSON', 'EXEC_BODY_EMPTY', 'BODY_NOT_UTF8', 'ARTIFACT_KEY_INVALID', 'MIME_INVALID',
    'ARTIFACT_TOO_LARGE', 'SESSIONS_NOT_ENABLED', 'EXECUTION_NOT_RUNNING'] as const) assert.equal(status(c), 400, c);
  for (const c of ['TOKEN_MISSING', 'TOKEN_EXPIRED', 'TOKEN_INVALID'] as const) assert.equal(status(c), 401, c);
  for (const c of ['HOST_NOT_ALLOWED', 'ORIGIN_NOT_ALLOWED'] as const) assert.equal(status(c), 403, c);
  for (const c of ['EXECUTION_NOT_FOUND', 'ARTIFACT_NOT_FOUND', 'UPLOAD_TOKEN_NOT_FOUND', 'UNKNOWN_PLATFORM', 'CLI_NOT_EMBEDDED'] as const) assert.equal(status(c), 404, c);
  assert.equal(status('UPLOAD_TOO_LARGE'), 413);
  for (const c of ['UNSUPPORTED_CONTENT_TYPE', 'UNSUPPORTED_CHARSET', 'UNSUPPORTED_CONTENT_ENCODING'] as const) assert.equal(status(c), 415, c);
  for (const c of ['INTERNAL', 'ARTIFACT_STORE_UNAVAILABLE'] as const) assert.equal(status(c), 500, c);
});

test('MCP: service and argument errors are error results; only an unknown tool and a refused task are JSON-RPC errors', () => {
  for (const c of ['EXECUTION_NOT_FOUND', 'QUEUE_FULL', 'HEAP_OUT_OF_RANGE', 'HEAP_NOT_ENABLED', 'INVALID_ARGUMENTS', 'ARTIFACT_NOT_FOUND', 'UPLOAD_TTL_OUT_OF_RANGE'] as const) {
    assert.equal(ERRORS[c].mcp, 'tool-error', c);
  }
  assert.deepEqual(CODES.filter((c) => ERRORS[c].mcp === 'invalid-params'), ['UNKNOWN_TOOL', 'TOOL_NOT_TASK']);
});

test('runjs\'s own texts', () => {
  assert.equal(EXECUTION_ERRORS.WORKER_DIED('killed by SIGKILL'), 'Worker process died during execution (killed by SIGKILL)');
  assert.equal(errorMessage('EXECUTION_NOT_FOUND', 'x'), "Execution 'x' not found");
  assert.equal(errorMessage('EXECUTION_NOT_RUNNING', 'x', 'completed'), "Execution 'x' is not running (status: completed)");
  assert.equal(errorMessage('TIMEOUT_OUT_OF_RANGE', 301, TIMEOUT_SECS.min, TIMEOUT_SECS.max), 'execution_timeout_secs must be an integer from 1 to 300, got 301');
  assert.equal(errorMessage('HEAP_OUT_OF_RANGE', 5000, HEAP_MB_FLOOR, 1024), 'heap_memory_max_mb must be an integer from 8 to 1024 (smaller values are raised to 8), got 5000');
  assert.equal(errorMessage('INVALID_HEAP_KEY', 'x'.repeat(100)), `invalid heap key "${'x'.repeat(80)}…": expected a heap key as returned in \`heap\` (64 lowercase hex characters)`);
  assert.equal(errorMessage('INTERNAL'), 'internal error');
  assert.equal(errorMessage('ARTIFACT_TOO_LARGE', MAX_ARTIFACT_BYTES), 'artifact payload is larger than the limit of 16777216 bytes (16 MiB)');
  assert.equal(errorMessage('ARTIFACT_PAYLOAD_TOO_LARGE', MAX_ARTIFACT_BYTES), 'artifact payload exceeds the limit of 16777216 bytes (16 MiB)');
  assert.equal(errorMessage('ARTIFACT_PAYLOAD_TOO_LARGE', MAX_ARTIFACT_BYTES, 17_000_000), 'artifact payload of 17000000 bytes exceeds the limit of 16777216 bytes (16 MiB)');
  assert.equal(errorMessage('QUERY_PARAMETER_UNKNOWN', 'x', ['a', 'b']), "Invalid query: unknown query parameter 'x' (allowed: a, b)");
  assert.equal(errorMessage('METHOD_NOT_ALLOWED', 'DELETE', '/api/version', ['GET', 'HEAD', 'OPTIONS']), 'Method DELETE is not allowed on /api/version (allowed: GET, HEAD, OPTIONS)');
  assert.equal(errorMessage('INVALID_ARGUMENTS', 'run_js', 'code: is required'), 'Invalid arguments for run_js: code: is required');
});

test('docs/errors.md is generated from the registry and current', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/gen-error-docs.ts'), '--check'], { encoding: 'utf8' });
  assert.equal(result.stderr, '');
  assert.equal(result.status, 0);
});
