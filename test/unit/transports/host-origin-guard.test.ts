// Host header parsing for the DNS-rebinding guard: only host[:port] with a digits-only port passes;
// userinfo, paths, spaces, empty hosts and odd ports are refused, whatever the allowlist says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostAllowed, parseHost } from '../../../supervisor/transports/host-origin-guard.ts';

const DEFAULT = ['localhost', '127.0.0.1', '::1'];

test('parseHost: host and port, lowercase, brackets and a trailing dot removed', () => {
  assert.deepEqual(parseHost('Example.COM'), { host: 'example.com', port: undefined });
  assert.deepEqual(parseHost('example.com.:8080'), { host: 'example.com', port: '8080' });
  assert.deepEqual(parseHost('127.0.0.1:1'), { host: '127.0.0.1', port: '1' });
  assert.deepEqual(parseHost('[::1]'), { host: '::1', port: undefined });
  assert.deepEqual(parseHost('[::1]:65535'), { host: '::1', port: '65535' });
});

const MALFORMED = [
  'localhost:1@evil', 'localhost:1@evil.example', 'user@localhost', 'user:pw@localhost:80', 'localhost:abc', 'localhost:',
  'localhost:123456', 'localhost:-1', 'localhost:+80', 'localhost:80:80', ':8080', '.', ':', 'localhost/evil', 'localhost:80/x',
  'localhost?x', 'localhost#x', 'local host', 'localhost: 80', ' localhost', '[::1]:1@evil', '[::1]x', '[::1', '::1', '[]',
  '[evil.example]', 'localhost\\evil', 'lócalhost', '*', '*.example',
];

test('parseHost refuses malformed values', () => {
  for (const v of MALFORMED) assert.equal(parseHost(v), undefined, v);
});

test('hostAllowed: malformed Host values are refused, under the default list and under *', () => {
  for (const v of MALFORMED) {
    assert.equal(hostAllowed(v, DEFAULT), false, v);
    assert.equal(hostAllowed(v, ['*']), false, `${v} under *`);
  }
});

test('hostAllowed: a bare entry matches any port, an entry with a port only that port', () => {
  for (const v of ['localhost', 'localhost:1', 'LOCALHOST:8080', '127.0.0.1:99999', '[::1]', '[::1]:3000']) assert.equal(hostAllowed(v, DEFAULT), true, v);
  assert.equal(hostAllowed('runjs.example:8443', ['runjs.example:8443']), true);
  for (const v of ['runjs.example', 'runjs.example:8444', 'runjs.example:08443']) assert.equal(hostAllowed(v, ['runjs.example:8443']), false, v);
  assert.equal(hostAllowed('evil.example', DEFAULT), false);
  assert.equal(hostAllowed('x.not-a-wildcard', ['*.not-a-wildcard']), false);
});

test('hostAllowed: a missing or empty Host passes only under *', () => {
  for (const v of [undefined, '']) {
    assert.equal(hostAllowed(v, DEFAULT), false);
    assert.equal(hostAllowed(v, ['*']), true);
  }
});
