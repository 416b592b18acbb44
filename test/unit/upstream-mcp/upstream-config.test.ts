// --mcp-config and --mcp-server: the accepted shapes and the startup messages for the rest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMcpConfig, parseMcpServerFlag, upstreamServersOf } from '../../../supervisor/upstream-mcp/upstream-config.ts';
import { ConfigError } from '../../../supervisor/config/config-error.ts';
import { load } from '../config/helpers.ts';

test('--mcp-server: stdio splits at every colon, sse and http keep the URL whole', () => {
  assert.deepEqual(parseMcpServerFlag('files=stdio:npx:-y:server-fs:/srv'), { name: 'files', transport: 'stdio', command: 'npx', args: ['-y', 'server-fs', '/srv'], env: {} });
  assert.deepEqual(parseMcpServerFlag('gh=http:https://api.example.com:8443/mcp'), { name: 'gh', transport: 'http', url: 'https://api.example.com:8443/mcp' });
  assert.deepEqual(parseMcpServerFlag('old=sse:http://127.0.0.1:9000/sse'), { name: 'old', transport: 'sse', url: 'http://127.0.0.1:9000/sse' });
  assert.throws(() => parseMcpServerFlag('x=ws:ws://a'), { message: '--mcp-server "x=ws:ws://a".transport: expected "stdio", "sse" or "http" (got "ws")' });
  assert.throws(() => parseMcpServerFlag('x=http:ftp://a'), /'url' must be an http\(s\) URL/);
  assert.throws(() => parseMcpServerFlag('x=stdio:'), /'command' must be a non-empty string/);
});

test('--mcp-config: an array, one entry, or an object by name; keys and types are checked', () => {
  const entry = { name: 'a', transport: 'http', url: 'http://127.0.0.1:1/mcp' };
  assert.deepEqual(parseMcpConfig([entry]), [entry]);
  assert.deepEqual(parseMcpConfig(entry), [entry]);
  assert.deepEqual(parseMcpConfig({ a: { transport: 'stdio', command: 'node', args: ['s.js'], env: { K: 'v' } } }), [{ name: 'a', transport: 'stdio', command: 'node', args: ['s.js'], env: { K: 'v' } }]);
  assert.throws(() => parseMcpConfig([{ ...entry, extra: 1 }]), { message: '[0].extra: unknown key (expected one of name, transport, command, args, env, url, auth)' });
  assert.throws(() => parseMcpConfig([{ ...entry, name: 'a b' }]), /\[0\]: 'name' must be letters, digits, _ and - only/);
  assert.throws(() => parseMcpConfig([{ ...entry, name: 'a__b' }]), /must not contain '__'/);
  assert.throws(() => parseMcpConfig([{ ...entry, command: 'x' }]), { message: '[0].command: applies to the stdio transport only' });
  assert.throws(() => parseMcpConfig([{ name: 's', transport: 'stdio', command: 'x', args: [1] }]), { message: '[0].args: expected an array of strings' });
  assert.throws(() => upstreamServersOf(['a=http:http://x/'], [entry]), { message: "MCP server 'a' is configured twice (names must be unique across --mcp-server and --mcp-config)" });
});

test('auth (oauth_browser): taken on http, an error on sse, ignored (and flagged for a warning) on stdio; keys and types are checked', () => {
  const http = { name: 'a', transport: 'http', url: 'http://127.0.0.1:1/mcp' };
  const auth = (a: unknown) => parseMcpConfig([{ ...http, auth: a }])[0];
  assert.deepEqual(auth({ type: 'oauth_browser' }), { ...http, auth: { type: 'oauth_browser', redirectPort: 0 } });
  assert.deepEqual(auth({ type: 'oauth_browser', scope: 'read write', client_id: 'c', client_secret: 's', redirect_port: 8765, token_cache: '/var/lib/runjs/tokens.json' }),
    { ...http, auth: { type: 'oauth_browser', scope: 'read write', clientId: 'c', clientSecret: 's', redirectPort: 8765, tokenCache: '/var/lib/runjs/tokens.json' } });
  assert.throws(() => auth({ type: 'oauth_client_credentials' }), { message: '[0].auth.type: expected "oauth_browser" (got "oauth_client_credentials")' });
  assert.throws(() => auth({ type: 'oauth_browser', token_url: 'x' }), { message: '[0].auth.token_url: unknown key (expected one of type, scope, client_id, client_secret, redirect_port, token_cache)' });
  assert.throws(() => auth({ type: 'oauth_browser', redirect_port: 70000 }), { message: '[0].auth.redirect_port: expected an integer from 0 to 65535 (got 70000)' });
  assert.throws(() => auth({ type: 'oauth_browser', client_secret: 's' }), { message: '[0].auth.client_secret: needs client_id' });
  assert.throws(() => auth({ type: 'oauth_browser', scope: '' }), { message: '[0].auth.scope: expected a non-empty string' });
  assert.throws(() => auth('oauth_browser'), { message: '[0].auth: expected an object {type: "oauth_browser", ...}' });
  assert.throws(() => parseMcpConfig([{ name: 's', transport: 'sse', url: 'http://127.0.0.1:1/sse', auth: { type: 'oauth_browser' } }]),
    { message: '[0].auth: oauth_browser applies to the http (Streamable HTTP) transport only, not sse' });
  assert.deepEqual(parseMcpConfig([{ name: 'l', transport: 'stdio', command: 'node', auth: { type: 'oauth_browser' } }]),
    [{ name: 'l', transport: 'stdio', command: 'node', args: [], env: {}, ignoredAuth: true }]);
});

test('startup: the messages name the flag; stubs default on with a server', () => {
  const fail = (argv: string[], message: RegExp) => assert.throws(() => load(argv), (e: unknown) => e instanceof ConfigError && message.test(e.message));
  fail(['--mcp-config=[{"name":"x","transport":"http"}]'], /^invalid --mcp-config: \[0\]: 'url' must be an http\(s\) URL \(got undefined\)$/);
  fail(['--mcp-server=x=stdio:'], /^invalid --mcp-server 'x=stdio:': expected a value of the form NAME=stdio:CMD:ARG\.\.\.\|NAME=sse:URL\|NAME=http:URL$/);
  fail(['--mcp-server=x=http:ftp://a/'], /^--mcp-server "x=http:ftp:\/\/a\/": 'url' must be an http\(s\) URL \(got "ftp:\/\/a\/"\)$/);
  fail(['--mcp-server=x=http:http://a/', '--mcp-config={"x":{"transport":"http","url":"http://b/"}}'], /^MCP server 'x' is configured twice/);
  assert.equal(load(['--mcp-config={"x":{"transport":"http","url":"http://b/"}}']).mcpStubs, true);
  assert.equal(load([]).mcpStubs, false);
});
