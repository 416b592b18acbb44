// POST /api/exec over a real server: both body forms, every 400/413/415 with its exact text, and
// that a rejected request registers nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';
import { call, eventually, startHarness, TEST_BODY_LIMIT, type Body, type Harness } from './rest-harness.ts';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h.shutdown(); });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function post(body: Body, headers: Record<string, string> = {}, query = ''): ReturnType<typeof call> {
  return call(h.base, 'POST', `/api/exec${query}`, { body, headers });
}

async function accepted(body: Body, headers: Record<string, string> = {}, query = ''): Promise<string> {
  const r = await post(body, headers, query);
  assert.equal(r.status, 202, JSON.stringify(r.body));
  const { execution_id: id } = r.body as { execution_id: string };
  assert.deepEqual(Object.keys(r.body as object), ['execution_id']);
  assert.match(id, UUID);
  return id;
}

async function finished(id: string): Promise<Record<string, unknown>> {
  const r = await eventually(`execution ${id} to finish`, () => call(h.base, 'GET', `/api/executions/${id}`), (r) => (r.body as { status: string }).status !== 'running');
  return r.body as Record<string, unknown>;
}

async function output(id: string): Promise<string> {
  return ((await call(h.base, 'GET', `/api/executions/${id}/output`)).body as { data: string }).data;
}

async function registered(): Promise<number> {
  return ((await call(h.base, 'GET', '/api/executions')).body as { executions: unknown[] }).executions.length;
}

/** Sends each bad request and checks status and exact text; none of them may register an execution. */
async function rejects(cases: readonly (readonly [what: string, send: () => ReturnType<typeof call>, status: number, error: string])[]): Promise<void> {
  const before = await registered();
  for (const [what, send, status, error] of cases) {
    const r = await send();
    assert.deepEqual({ status: r.status, body: r.body }, { status, body: { error } }, what);
  }
  assert.equal(await registered(), before, 'a rejected request registered an execution');
}

test('JSON body with application/json, a charset, a +json type, or no Content-Type; every field applies', async () => {
  const json = JSON.stringify({ code: 'console.log("hi"); 6 * 7', heap: '', fs: null, session: 's1', tags: null, heap_memory_max_mb: 16, execution_timeout_secs: 5 });
  const ids = [
    await accepted(json, { 'content-type': 'application/json' }),
    await accepted(json, { 'content-type': 'Application/JSON; charset=UTF-8' }),
    await accepted(json, { 'content-type': 'application/vnd.runjs+json' }),
    await accepted(bytes(json)), // a byte body: fetch sends no Content-Type
  ];
  for (const id of ids) {
    const info = await finished(id);
    assert.deepEqual({ status: info['status'], result: info['result'], error: info['error'] }, { status: 'completed', result: '42', error: null });
    assert.equal(await output(id), 'hi\n');
  }
  const timed = await finished(await accepted(JSON.stringify({ code: 'while (true) {}', execution_timeout_secs: 1 }), { 'content-type': 'application/json' }));
  assert.deepEqual([timed['status'], timed['error']], ['timed_out', EXECUTION_ERRORS.TIMED_OUT]);
});

test('raw body: the source for any other Content-Type, with options from the query', async () => {
  const js = await accepted('console.log("raw"); "x".repeat(3)', { 'content-type': 'text/plain' });
  assert.equal((await finished(js))['result'], '"xxx"');
  assert.equal(await output(js), 'raw\n');
  const ts = await accepted('const n: number = 5;\nexport default n * 2;', { 'content-type': 'application/typescript' });
  assert.equal((await finished(ts))['result'], '10');
  // curl --data-binary sends application/x-www-form-urlencoded: still the source, verbatim.
  const form = await accepted('[1, 2].map((x) => x + 1)', { 'content-type': 'application/x-www-form-urlencoded' });
  assert.equal((await finished(form))['result'], '[2,3]');
  const small = await accepted('globalThis.ok = 1; "small heap raised to 8"', { 'content-type': 'application/javascript' }, '?heap_memory_max_mb=1&session=abc&heap=');
  assert.equal((await finished(small))['status'], 'completed');
  const timed = await finished(await accepted('while (true) {}', { 'content-type': 'text/plain' }, '?execution_timeout_secs=1'));
  assert.deepEqual([timed['status'], timed['error']], ['timed_out', EXECUTION_ERRORS.TIMED_OUT]);
  const broken = await finished(await accepted('const x: = 1', { 'content-type': 'text/plain' }));
  assert.equal(broken['status'], 'failed');
  assert.ok(String(broken['error']).startsWith(EXECUTION_ERRORS.TYPESCRIPT_PREFIX), String(broken['error']));
});

test('400: malformed or invalid JSON bodies, each with a message naming the problem', async () => {
  const jsonError = (text: string): string => {
    try { JSON.parse(text); } catch (e) { return `Request body is not valid JSON: ${(e as Error).message}`; }
    throw new Error('valid JSON');
  };
  const j = (body: Body, query = '') => () => post(body, { 'content-type': 'application/json' }, query);
  const allowed = 'code, heap, fs, session, tags, heap_memory_max_mb, execution_timeout_secs';
  await rejects([
    ['truncated JSON', j('{"code": '), 400, jsonError('{"code": ')],
    ['not JSON at all', j('console.log(1)'), 400, jsonError('console.log(1)')],
    ['empty body', j(''), 400, 'Request body is empty: send a JSON ExecRequest such as {"code": "1 + 1"}, or the script source with a Content-Type such as text/plain'],
    ['an array', j('[]'), 400, 'Invalid ExecRequest: the body must be an object, got []'],
    ['no code', j('{}'), 400, "Invalid ExecRequest: missing required field 'code'"],
    ['code not a string', j('{"code": 1}'), 400, "Invalid ExecRequest: field 'code' must be a string, got 1"],
    ['unknown field', j('{"code": "1", "timeout": 5}'), 400, `Invalid ExecRequest: unknown field 'timeout' (allowed: ${allowed})`],
    ['timeout 0', j('{"code": "1", "execution_timeout_secs": 0}'), 400, "Invalid ExecRequest: field 'execution_timeout_secs' must be >= 1, got 0"],
    ['timeout 301', j('{"code": "1", "execution_timeout_secs": 301}'), 400, "Invalid ExecRequest: field 'execution_timeout_secs' must be <= 300, got 301"],
    ['timeout 1.5', j('{"code": "1", "execution_timeout_secs": 1.5}'), 400, "Invalid ExecRequest: field 'execution_timeout_secs' must be an integer or null, got 1.5"],
    ['timeout as string', j('{"code": "1", "execution_timeout_secs": "5"}'), 400, `Invalid ExecRequest: field 'execution_timeout_secs' must be an integer or null, got "5"`],
    ['heap 0 MB', j('{"code": "1", "heap_memory_max_mb": 0}'), 400, "Invalid ExecRequest: field 'heap_memory_max_mb' must be >= 1, got 0"],
    ['heap over the server maximum', j('{"code": "1", "heap_memory_max_mb": 5000}'), 400, 'heap_memory_max_mb must be an integer from 8 to 512 (smaller values are raised to 8), got 5000'],
    ['tag not a string', j('{"code": "1", "tags": {"a": 1}}'), 400, "Invalid ExecRequest: field 'tags.a' must be a string, got 1"],
    ['heap without a heap store', j('{"code": "1", "heap": "abc"}'), 400, 'heap snapshots are not enabled on this server: start it with --heap-store dir or s3 to use `heap` and `tags`'],
    ['tags without a heap store', j('{"code": "1", "tags": {"a": "b"}}'), 400, 'heap snapshots are not enabled on this server: start it with --heap-store dir or s3 to use `heap` and `tags`'],
    ['fs without an fs store', j('{"code": "1", "fs": "main"}'), 400, 'filesystem snapshots are not enabled on this server: start it with --fs-store dir or s3 to use `fs`'],
    ['raw-form query with JSON', j('{"code": "1"}', '?execution_timeout_secs=5'), 400, `Invalid query: query parameter 'execution_timeout_secs' applies only when the body is raw source; with a JSON body put "execution_timeout_secs" in the JSON object`],
    ['JSON not UTF-8', j(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])), 400, 'Request body is not valid UTF-8: send the script source (or the JSON) encoded as UTF-8'],
  ]);
});

test('400: raw-form query parameters are parsed strictly and checked like the JSON fields', async () => {
  const raw = (query: string, body: Body = '1') => () => post(body, { 'content-type': 'text/plain' }, query);
  const notInt = (name: string, got: string): string => `Invalid query: query parameter '${name}' must be a non-negative integer, got '${got}'`;
  await rejects([
    ['letters', raw('?execution_timeout_secs=abc'), 400, notInt('execution_timeout_secs', 'abc')],
    ['fraction', raw('?execution_timeout_secs=1.5'), 400, notInt('execution_timeout_secs', '1.5')],
    ['negative', raw('?heap_memory_max_mb=-1'), 400, notInt('heap_memory_max_mb', '-1')],
    ['exponent', raw('?heap_memory_max_mb=1e2'), 400, notInt('heap_memory_max_mb', '1e2')],
    ['empty', raw('?execution_timeout_secs='), 400, notInt('execution_timeout_secs', '')],
    ['leading space', raw('?execution_timeout_secs=%205'), 400, notInt('execution_timeout_secs', ' 5')],
    ['trailing junk', raw('?execution_timeout_secs=5s'), 400, notInt('execution_timeout_secs', '5s')],
    ['timeout 0', raw('?execution_timeout_secs=0'), 400, "Invalid query: query parameter 'execution_timeout_secs' must be >= 1, got 0"],
    ['timeout 301', raw('?execution_timeout_secs=301'), 400, "Invalid query: query parameter 'execution_timeout_secs' must be <= 300, got 301"],
    ['heap 0 MB', raw('?heap_memory_max_mb=0'), 400, "Invalid query: query parameter 'heap_memory_max_mb' must be >= 1, got 0"],
    ['repeated', raw('?session=a&session=b'), 400, "Invalid query: query parameter 'session' was given more than once"],
    ['unknown', raw('?timeout=5'), 400, "Invalid query: unknown query parameter 'timeout' (allowed: heap, session, heap_memory_max_mb, execution_timeout_secs)"],
    ['heap without a heap store', raw('?heap=abc'), 400, 'heap snapshots are not enabled on this server: start it with --heap-store dir or s3 to use `heap` and `tags`'],
    ['source not UTF-8', raw('', new Uint8Array([0x31, 0x2b, 0xc3, 0x28])), 400, 'Request body is not valid UTF-8: send the script source (or the JSON) encoded as UTF-8'],
  ]);
});

test('415: multipart, a charset other than UTF-8, a compressed body', async () => {
  const form = new FormData();
  form.set('code', '1');
  await rejects([
    ['multipart form', () => post(form), 415, "Unsupported Content-Type 'multipart/form-data': send a JSON ExecRequest (application/json) or the script source as the raw body (e.g. text/plain or application/javascript)"],
    ['latin1', () => post('1', { 'content-type': 'text/plain; charset=latin1' }), 415, "Unsupported charset 'latin1': the body must be UTF-8"],
    ['gzip', () => post(bytes('{"code":"1"}'), { 'content-type': 'application/json', 'content-encoding': 'gzip' }), 415, "Unsupported Content-Encoding 'gzip': send the body uncompressed"],
  ]);
});

test('413: a body over --max-request-body, declared or streamed, is refused without reading it all', async () => {
  const tooLarge = `Request body is larger than the limit of ${TEST_BODY_LIMIT} bytes (server option --max-request-body)`;
  // Exactly at the limit is accepted.
  const atLimit = `//${'x'.repeat(TEST_BODY_LIMIT - 4)}\n1`;
  assert.equal(bytes(atLimit).length, TEST_BODY_LIMIT);
  assert.equal((await finished(await accepted(atLimit, { 'content-type': 'text/plain' })))['result'], '1');

  await rejects([
    ['one byte over (raw)', () => post(`${atLimit}2`, { 'content-type': 'text/plain' }), 413, tooLarge],
    ['JSON over', () => post(JSON.stringify({ code: 'x'.repeat(TEST_BODY_LIMIT) }), { 'content-type': 'application/json' }), 413, tooLarge],
  ]);

  // A chunked body with no Content-Length that would go on for 64 MiB: the server must answer as
  // soon as the limit is passed, while the client is still sending.
  const cap = 64 << 20;
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= cap) { c.close(); return; }
      sent += 16384;
      c.enqueue(new Uint8Array(16384).fill(0x20));
    },
  });
  const res = await fetch(`${h.base}/api/exec`, { method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': 'text/plain' } } as RequestInit);
  assert.equal(res.status, 413);
  assert.deepEqual(await res.json(), { error: tooLarge });
  assert.ok(sent < cap, `the server waited for the whole body (${sent} bytes sent)`);

  // The server is still healthy afterwards.
  assert.equal((await call(h.base, 'GET', '/api/version')).status, 200);
});
