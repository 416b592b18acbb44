// The post-hook output document of a fetch response and how a hook's rewrite applies to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyOutput, fetchOutput } from '../../../../worker/ops/fetch/fetch-post.ts';
import type { ResponseHead } from '../../../../worker/ops/fetch/exchange.ts';

const head: ResponseHead = { status: 200, statusText: 'OK', url: 'http://h/x', redirected: false, headers: [['Content-Type', 'text/plain'], ['Content-Length', '5'], ['Vary', 'a'], ['Vary', 'b']] };
const bytes = new TextEncoder().encode('hello');

test('the output document: lowercased headers joined with ", ", UTF-8 text as body, other bytes as body_base64', () => {
  assert.deepEqual(fetchOutput(head, bytes), {
    status: 200, status_text: 'OK', url: 'http://h/x', redirected: false,
    headers: { 'content-type': 'text/plain', 'content-length': '5', vary: 'a, b' }, body: 'hello',
  });
  const binary = fetchOutput(head, new Uint8Array([0xff, 0x00]));
  assert.equal(binary.body, undefined);
  assert.equal(binary.body_base64, '/wA=');
});

test('an unchanged output (the same object, or spread unchanged) leaves the response as it was', () => {
  const before = fetchOutput(head, bytes);
  assert.deepEqual(applyOutput(head, bytes, before, before), { head, body: bytes });
  const spread = applyOutput(head, bytes, { ...before }, before);
  assert.equal(spread.body, bytes);
  assert.deepEqual(spread.head.headers, head.headers);
});

test('a rewritten body gets its new Content-Length; body null empties it; body_base64 wins over body', () => {
  const before = fetchOutput(head, bytes);
  const text = applyOutput(head, bytes, { ...before, body: 'hi' }, before);
  assert.equal(new TextDecoder().decode(text.body), 'hi');
  assert.deepEqual(text.head.headers.find(([k]) => k.toLowerCase() === 'content-length'), ['Content-Length', '2']);
  assert.equal(applyOutput(head, bytes, { ...before, body: null }, before).body.byteLength, 0);
  assert.deepEqual([...applyOutput(head, bytes, { ...before, body: 'ignored', body_base64: 'AQI=' }, before).body], [1, 2]);
});

test('status, status text and headers are rewritten; a missing key keeps the original', () => {
  const before = fetchOutput(head, bytes);
  const out = applyOutput(head, bytes, { status: 451, headers: { 'X-New': 'y' } }, before);
  assert.equal(out.head.status, 451);
  assert.equal(out.head.statusText, 'OK');
  assert.deepEqual(out.head.headers, [['x-new', 'y']]);
  assert.equal(out.body, bytes);
});

test('invalid rewrites fail the operation naming what is wrong', () => {
  const before = fetchOutput(head, bytes);
  const fails = (output: unknown, text: string): void => {
    assert.throws(() => applyOutput(head, bytes, output, before), (e: Error & { code?: string }) => e.message === `fetch policy failed: a post hook ${text}` && e.code === 'ERR_POLICY_FAILED');
  };
  fails('nope', 'rewrote the output to something that is not an object');
  fails({ status: 99 }, 'rewrote status to 99 (expected an integer 200-599)');
  fails({ status_text: 'a\nb' }, 'rewrote status_text to an invalid reason phrase');
  fails({ headers: { 'bad name': 'v' } }, 'rewrote header "bad name" to an invalid name or value');
  fails({ headers: { ok: 'a\r\nInjected: 1' } }, 'rewrote header "ok" to an invalid name or value');
  fails({ body: 42 }, 'rewrote body to something that is not a string');
  fails({ body_base64: '%%' }, 'rewrote body_base64 to something that is not base64');
});
