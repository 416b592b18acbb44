// GET /api/executions, GET /api/executions/{id}, POST …/cancel and GET …/output over a real
// server: exact shapes, both paging modes while a run is in progress, every cursor field, caps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';
import { MAX_BYTE_LIMIT, MAX_LINE_LIMIT } from '../../../supervisor/rest/index.ts';
import { call, eventually, startHarness, type Harness } from './rest-harness.ts';

let h: Harness;
before(async () => { h = await startHarness({}, { maxOutputBytes: 4 << 20 }); });
after(async () => { await h.shutdown(); });

type Json = Record<string, unknown>;

async function submit(code: string): Promise<string> {
  const r = await call(h.base, 'POST', '/api/exec', { body: code, headers: { 'content-type': 'text/plain' } });
  assert.equal(r.status, 202);
  return (r.body as { execution_id: string }).execution_id;
}

async function get(path: string): Promise<Json> {
  const r = await call(h.base, 'GET', path);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as Json;
}

async function finished(id: string): Promise<Json> {
  return eventually(`execution ${id} to finish`, () => get(`/api/executions/${id}`), (b) => b['status'] !== 'running');
}

function page(id: string, query: string): Promise<Json> {
  return get(`/api/executions/${id}/output?${query}`);
}

/** The cursor fields of a page, in a fixed order, for one-line comparisons. */
function cursors(p: Json): unknown[] {
  return ['data', 'start_line', 'end_line', 'next_line_offset', 'total_lines', 'start_byte', 'end_byte', 'next_byte_offset', 'total_bytes', 'has_more', 'status'].map((k) => p[k]);
}

test('list and get: exact shapes, newest first; unknown ids are 404 with the exact text', async () => {
  const first = await submit('console.log("one"); ({ a: [1, "two"] })');
  await finished(first);
  const second = await submit('throw new TypeError("bad input")');
  await finished(second);

  const info = await get(`/api/executions/${first}`);
  assert.deepEqual(Object.keys(info).sort(), ['artifacts', 'completed_at', 'error', 'execution_id', 'fs', 'heap', 'result', 'started_at', 'status']);
  assert.deepEqual({ ...info, started_at: 'x', completed_at: 'y' }, {
    execution_id: first, status: 'completed', result: '{"a":[1,"two"]}', heap: null, fs: null, error: null,
    started_at: 'x', completed_at: 'y', artifacts: [],
  });
  assert.ok(Date.parse(String(info['completed_at'])) >= Date.parse(String(info['started_at'])));

  const failed = await get(`/api/executions/${second}`);
  assert.equal(failed['status'], 'failed');
  assert.equal(failed['result'], null);
  assert.match(String(failed['error']), /^Uncaught TypeError: bad input/);

  const list = (await get('/api/executions'))['executions'] as Json[];
  const ours = list.filter((e) => e['execution_id'] === first || e['execution_id'] === second);
  assert.deepEqual(ours.map((e) => e['execution_id']), [second, first], 'newest first');
  assert.deepEqual(Object.keys(ours[0]!).sort(), ['completed_at', 'execution_id', 'started_at', 'status']);
  assert.deepEqual(ours.map((e) => e['status']), ['failed', 'completed']);

  for (const [method, path] of [['GET', '/api/executions/no-such-id'], ['GET', '/api/executions/no-such-id/output'], ['POST', '/api/executions/no-such-id/cancel']] as const) {
    const r = await call(h.base, method, path);
    assert.deepEqual({ status: r.status, body: r.body }, { status: 404, body: { error: "Execution 'no-such-id' not found" } }, `${method} ${path}`);
  }
  // A bad query is reported before the id is looked up.
  const bad = await call(h.base, 'GET', '/api/executions/no-such-id/output?line_offset=x');
  assert.equal(bad.status, 400);
});

test('output pages in line and byte mode while the run goes on; then cancel, and cancel again', async () => {
  const id = await submit('for (let i = 0; i < 5; i++) console.log("line " + i);\nawait new Promise((r) => setTimeout(r, 60_000));');
  await eventually('five lines', () => page(id, ''), (p) => p['total_lines'] === 5);

  // Line mode, 0-based, exclusive ends; iterate with next_line_offset until has_more is false.
  assert.deepEqual(cursors(await page(id, 'line_offset=0&line_limit=2')), ['line 0\nline 1\n', 0, 2, 2, 5, 0, 14, 14, 35, true, 'running']);
  assert.deepEqual(cursors(await page(id, 'line_offset=2&line_limit=2')), ['line 2\nline 3\n', 2, 4, 4, 5, 14, 28, 28, 35, true, 'running']);
  assert.deepEqual(cursors(await page(id, 'line_offset=4&line_limit=2')), ['line 4\n', 4, 5, 5, 5, 28, 35, 35, 35, false, 'running']);
  assert.deepEqual(cursors(await page(id, 'line_offset=99')), ['', 5, 5, 5, 5, 35, 35, 35, 35, false, 'running']);

  // Byte mode (byte_offset given; it wins over line parameters); line cursors still filled.
  assert.deepEqual(cursors(await page(id, 'byte_offset=0&byte_limit=10&line_offset=3')), ['line 0\nlin', 0, 1, 1, 5, 0, 10, 10, 35, true, 'running']);
  assert.deepEqual(cursors(await page(id, 'byte_offset=10&byte_limit=30')), ['e 1\nline 2\nline 3\nline 4\n', 1, 5, 5, 5, 10, 35, 35, 35, false, 'running']);
  assert.deepEqual(cursors(await page(id, 'byte_offset=100')), ['', 5, 5, 5, 5, 35, 35, 35, 35, false, 'running']);

  const cancel = await call(h.base, 'POST', `/api/executions/${id}/cancel`);
  assert.deepEqual({ status: cancel.status, body: cancel.body }, { status: 200, body: { ok: true } });
  const info = await get(`/api/executions/${id}`);
  assert.deepEqual([info['status'], info['error'], info['result']], ['cancelled', EXECUTION_ERRORS.CANCELLED, null]);
  assert.equal(typeof info['completed_at'], 'string');
  assert.deepEqual(cursors(await page(id, '')), ['line 0\nline 1\nline 2\nline 3\nline 4\n', 0, 5, 5, 5, 0, 35, 35, 35, false, 'cancelled']);

  const again = await call(h.base, 'POST', `/api/executions/${id}/cancel`);
  assert.deepEqual({ status: again.status, body: again.body }, { status: 400, body: { ok: false, error: `Execution '${id}' is not running (status: cancelled)` } });
});

test('cancel of a completed execution is 400 with a CancelResult; the status stays completed', async () => {
  const id = await submit('1');
  await finished(id);
  const r = await call(h.base, 'POST', `/api/executions/${id}/cancel`);
  assert.deepEqual({ status: r.status, body: r.body }, { status: 400, body: { ok: false, error: `Execution '${id}' is not running (status: completed)` } });
  assert.equal((await get(`/api/executions/${id}`))['status'], 'completed');
});

test('byte windows never split a UTF-8 character: data is exactly bytes [start_byte, end_byte)', async () => {
  const id = await submit('console.log("a\\u00e9\\u20acb")'); // a(1) é(2) €(3) b(1) \n(1)
  await finished(id);
  assert.deepEqual(cursors(await page(id, 'byte_offset=0&byte_limit=2')), ['a', 0, 0, 0, 1, 0, 1, 1, 8, true, 'completed']);
  assert.deepEqual(cursors(await page(id, 'byte_offset=2&byte_limit=2')), ['€', 0, 0, 0, 1, 3, 6, 6, 8, true, 'completed']);
  assert.deepEqual(cursors(await page(id, 'byte_offset=6')), ['b\n', 0, 1, 1, 1, 6, 8, 8, 8, false, 'completed']);
});

test('defaults (100 lines, 4096 bytes) and the documented maximum page sizes', async () => {
  const lines = await submit('for (let i = 0; i < 10005; i++) console.log(i)');
  await finished(lines);
  const byDefault = await page(lines, '');
  assert.deepEqual([byDefault['start_line'], byDefault['end_line'], byDefault['total_lines'], byDefault['has_more']], [0, 100, 10005, true]);
  assert.equal(byDefault['data'], `${Array.from({ length: 100 }, (_, i) => i).join('\n')}\n`);
  const capped = await page(lines, 'line_limit=1000000');
  assert.deepEqual([capped['end_line'], capped['next_line_offset'], capped['has_more']], [MAX_LINE_LIMIT, MAX_LINE_LIMIT, true]);
  const bytesDefault = await page(lines, 'byte_offset=0');
  assert.deepEqual([bytesDefault['start_byte'], bytesDefault['end_byte']], [0, 4096]);

  const big = await submit('console.log("x".repeat(1_100_000))');
  await finished(big);
  const bigPage = await page(big, 'byte_offset=0&byte_limit=5000000');
  assert.deepEqual([bigPage['end_byte'], bigPage['total_bytes'], bigPage['has_more']], [MAX_BYTE_LIMIT, 1_100_001, true]);
  assert.equal((bigPage['data'] as string).length, MAX_BYTE_LIMIT);
});

test('400: output query parameters must be known, single, non-negative integers, limits at least 1', async () => {
  const id = await submit('1');
  await finished(id);
  const notInt = (name: string, got: string): string => `Invalid query: query parameter '${name}' must be a non-negative integer, got '${got}'`;
  const cases: [string, string][] = [
    ['line_offset=-1', notInt('line_offset', '-1')],
    ['line_limit=abc', notInt('line_limit', 'abc')],
    ['byte_offset=1.5', notInt('byte_offset', '1.5')],
    ['byte_limit=', notInt('byte_limit', '')],
    // Checked even in the mode that does not use it.
    ['byte_offset=0&line_limit=x', notInt('line_limit', 'x')],
    ['line_offset=99999999999999999', notInt('line_offset', '99999999999999999')],
    // A zero limit would be an empty page that never advances (has_more stays true).
    ['line_limit=0', "Invalid query: query parameter 'line_limit' must be at least 1, got '0'"],
    ['byte_offset=0&byte_limit=0', "Invalid query: query parameter 'byte_limit' must be at least 1, got '0'"],
    ['byte_offset=0&line_limit=00', "Invalid query: query parameter 'line_limit' must be at least 1, got '00'"],
    ['line_offset=1&line_offset=2', "Invalid query: query parameter 'line_offset' was given more than once"],
    ['offset=3', "Invalid query: unknown query parameter 'offset' (allowed: line_offset, line_limit, byte_offset, byte_limit)"],
  ];
  for (const [query, error] of cases) {
    const r = await call(h.base, 'GET', `/api/executions/${id}/output?${query}`);
    assert.deepEqual({ status: r.status, body: r.body }, { status: 400, body: { error } }, query);
  }
});
