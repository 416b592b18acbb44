// node:http2 client sessions on both engines, against Node's own HTTP/2 servers on 127.0.0.1: h2c
// (http2.createServer) and TLS with ALPN h2 (http2.createSecureServer, a certificate from the test
// CA, trusted through the network settings' CA list). A gRPC-shaped exchange by hand — POST with
// content-type application/grpc, length-prefixed messages, grpc-status trailers — unary and
// server-streaming; the `http2` policy (no policy refuses the connection; connect and per-stream
// decisions in the log), header injection on every stream, and sessions closed with the run.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { guestSuite } from '../helpers/both-engines.ts';
import { makeTestCa, type TestCa } from '../helpers/test-ca.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';
import { parseHeaderConfig } from '../../supervisor/config/header-config.ts';
import { DEFAULT_HOST_OP_LIMITS } from '../../shared/worker-settings.ts';

/** One length-prefixed gRPC message (uncompressed). */
function frame(payload: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

function messages(body: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at + 5 <= body.length;) {
    const n = body.readUInt32BE(at + 1);
    out.push(body.subarray(at + 5, at + 5 + n));
    at += 5 + n;
  }
  return out;
}

interface Seen { path: string; headers: Record<string, unknown> }

function handler(seen: Seen[], sessions: { open: number }) {
  return (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void => {
    const path = String(headers[':path']);
    seen.push({ path, headers: { ...headers } });
    const chunks: Buffer[] = [];
    stream.on('error', () => { /* a reset (by either side) */ });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const input = messages(Buffer.concat(chunks)).map((m) => m.toString());
      if (path === '/test.Echo/Unary') {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': 'OK' }));
        stream.end(frame(Buffer.from(input.join('+').toUpperCase())));
      } else if (path === '/test.Echo/Stream') {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        for (let i = 1; i <= 3; i++) stream.write(frame(Buffer.from(`${input[0]}#${i}`)));
        stream.end();
      } else if (path === '/test.Echo/Missing') {
        // A trailers-only response: the status in the headers.
        stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12', 'grpc-message': 'unimplemented' }, { endStream: true });
      } else if (path === '/count') {
        // Answers the request body's size, then as many bytes back.
        const n = Buffer.concat(chunks).length;
        stream.respond({ ':status': 200 });
        stream.end(Buffer.alloc(n, 0x61));
      } else if (path === '/reset') {
        stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
      } else if (path === '/headers') {
        stream.respond({ ':status': 200, 'content-type': 'application/json' });
        stream.end(JSON.stringify(headers));
      } else {
        stream.respond({ ':status': 404 });
        stream.end();
      }
    });
  };
}

let ca: TestCa;
let h2c: http2.Http2Server;
let tls: http2.Http2SecureServer;
let h2cBase: string;
let tlsBase: string;
const seen: Seen[] = [];
const sessions = { open: 0 };

before(async () => {
  ca = await makeTestCa();
  h2c = http2.createServer();
  tls = http2.createSecureServer({ key: ca.key, cert: ca.cert });
  for (const server of [h2c, tls] as const) {
    server.on('stream', handler(seen, sessions));
    server.on('session', (s) => {
      sessions.open++;
      s.on('close', () => sessions.open--);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  }
  h2cBase = `http://127.0.0.1:${(h2c.address() as AddressInfo).port}`;
  tlsBase = `https://localhost:${(tls.address() as AddressInfo).port}`;
});
after(() => {
  h2c.close();
  tls.close();
});

const hookDir = mkdtempSync(join(tmpdir(), 'runjs-h2-hooks-'));
function hook(name: string, code: string): string {
  writeFileSync(join(hookDir, name), code);
  return pathToFileURL(join(hookDir, name)).href;
}

/** Guest helpers: gRPC framing, one call collected (response headers, messages, trailers). */
const GRPC = `
  const http2 = require('node:http2');
  const frame = (s) => { const p = Buffer.from(s); const h = Buffer.alloc(5); h.writeUInt32BE(p.length, 1); return Buffer.concat([h, p]); };
  const unframe = (b) => { const out = []; for (let at = 0; at + 5 <= b.length;) { const n = b.readUInt32BE(at + 1); out.push(b.subarray(at + 5, at + 5 + n).toString()); at += 5 + n; } return out; };
  function call(session, path, inputs) {
    return new Promise((resolve, reject) => {
      const req = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', authorization: 'placeholder' });
      const got = { status: 0, headers: null, chunks: [], trailers: null };
      req.on('response', (h) => { got.headers = h; });
      req.on('trailers', (t) => { got.trailers = t; });
      req.on('data', (c) => got.chunks.push(c));
      req.on('error', reject);
      req.on('close', () => resolve({ status: got.headers?.[':status'], type: got.headers?.['content-type'], messages: unframe(Buffer.concat(got.chunks)),
        grpcStatus: (got.trailers ?? got.headers)?.['grpc-status'], grpcMessage: (got.trailers ?? got.headers)?.['grpc-message'], rstCode: req.rstCode }));
      for (const m of inputs) req.write(frame(m));
      req.end();
    });
  }
`;

guestSuite('node:http2 without a policy', (g) => {
  g.test('the connection is refused: the session and its streams fail, nothing reaches the server', async (ctx) => {
    const before = seen.length;
    const out = await ctx.output(`
      const http2 = require('node:http2');
      const session = http2.connect('${h2cBase}');
      const errors = [];
      session.on('error', (e) => errors.push('session: ' + e.message));
      const req = session.request({ ':path': '/headers' });
      req.on('error', (e) => errors.push('stream: ' + e.code));
      await new Promise((r) => session.on('close', r));
      await new Promise((r) => req.on('close', r));
      console.log(errors.join('\\n'));
    `);
    assert.equal(out, `session: http2 is not enabled: start runjs with an "http2" section in --policies-json (the connection to ${h2cBase} is refused)\nstream: ERR_RUNJS_HTTP2_NOT_ENABLED\n`);
    assert.equal(seen.length, before);
  });

  g.test('server APIs throw', async (ctx) => {
    const out = await ctx.output(`
      const http2 = require('node:http2');
      try { http2.createServer(); } catch (e) { console.log(e.code, e.message); }
      console.log(http2.constants.NGHTTP2_CANCEL, http2.constants.HTTP2_HEADER_PATH);
    `);
    assert.equal(out, 'ERR_RUNJS_HTTP2_SERVER_UNSUPPORTED http2.createServer is not supported in runjs: scripts are HTTP/2 clients only\n8 :path\n');
  });
});

guestSuite('node:http2 under a policy, with header injection', (g) => {
  g.test('h2c: a gRPC unary and a server-streaming call, trailers, injection; connect and stream decisions logged', async (ctx) => {
    const before = seen.length;
    const res = await ctx.run(`${GRPC}
      const session = http2.connect('${h2cBase}');
      await new Promise((r, j) => { session.on('connect', r); session.on('error', j); });
      console.log(session.alpnProtocol, session.encrypted);
      console.log(JSON.stringify(await call(session, '/test.Echo/Unary', ['hello', 'world'])));
      console.log(JSON.stringify(await call(session, '/test.Echo/Stream', ['tick'])));
      console.log(JSON.stringify(await call(session, '/test.Echo/Missing', [])));
      session.close();
      await new Promise((r) => session.on('close', r));
      console.log('closed', session.closed, session.destroyed);
    `);
    assert.equal(res.outcome.status, 'completed', JSON.stringify(res));
    assert.equal(res.output, [
      'h2c false',
      '{"status":200,"type":"application/grpc","messages":["HELLO+WORLD"],"grpcStatus":"0","grpcMessage":"OK","rstCode":0}',
      '{"status":200,"type":"application/grpc","messages":["tick#1","tick#2","tick#3"],"grpcStatus":"0","rstCode":0}',
      '{"status":200,"type":"application/grpc","messages":[],"grpcStatus":"12","grpcMessage":"unimplemented","rstCode":0}',
      'closed true true',
      '',
    ].join('\n'));
    const calls = seen.slice(before);
    assert.deepEqual(calls.map((c) => c.path), ['/test.Echo/Unary', '/test.Echo/Stream', '/test.Echo/Missing']);
    for (const c of calls) {
      assert.equal(c.headers['authorization'], 'Bearer h2-secret', 'the injected value replaced the placeholder');
      assert.equal(c.headers['x-static'], 'always');
      assert.equal(c.headers[':method'], 'POST');
    }
    const entries = res.decisions?.entries ?? [];
    assert.deepEqual(entries.map((e) => [e.category, e.verdict, (e.input as { operation: string }).operation]), [
      ['http2', 'allow', 'connect'], ['http2', 'allow', 'request'], ['http2', 'allow', 'request'], ['http2', 'allow', 'request'],
    ]);
    const connect = entries[0]!.input as { url: string; url_parsed: { host: string } };
    assert.equal(connect.url_parsed.host, '127.0.0.1');
    const request = entries[1]!.input as Record<string, unknown>;
    assert.equal(request['authority'], h2cBase.slice('http://'.length));
    assert.deepEqual([request['scheme'], request['method'], request['path']], ['http', 'POST', '/test.Echo/Unary']);
    assert.equal((request['headers'] as Record<string, string>)['content-type'], 'application/grpc');
    assert.doesNotMatch(JSON.stringify(entries), /h2-secret/, 'injected values are redacted in the log');
    assert.equal(res.decisions?.egress?.['http2']?.requests, 3);
  });

  g.test('TLS with ALPN h2, the certificate from the operator\'s CA list', async (ctx) => {
    const out = await ctx.output(`${GRPC}
      const session = http2.connect('${tlsBase}');
      const result = await call(session, '/test.Echo/Unary', ['secure']);
      console.log(session.alpnProtocol, session.encrypted, JSON.stringify(result.messages), result.grpcStatus);
      session.close();
    `);
    assert.equal(out, 'h2 true ["SECURE"] 0\n');
  });

  g.test('a stream the policy denies fails with its reason; a pre hook may rewrite a stream; a host the policy refuses fails the session', async (ctx) => {
    const out = await ctx.output(`
      const http2 = require('node:http2');
      const session = http2.connect('${h2cBase}');
      const req = session.request({ ':path': '/forbidden' });
      console.log(await new Promise((r) => req.on('error', (e) => r(e.code + ' ' + e.message))));
      const ok = session.request({ ':path': '/headers' });
      ok.setEncoding('utf8');
      let body = '';
      ok.on('data', (d) => { body += d; });
      await new Promise((r) => ok.on('end', r));
      console.log(JSON.parse(body)[':method']);
      const old = session.request({ ':path': '/old' });
      old.setEncoding('utf8');
      let moved = '';
      old.on('data', (d) => { moved += d; });
      await new Promise((r) => old.on('end', r));
      const h = JSON.parse(moved);
      console.log(h[':path'], h['x-rewritten']);
      session.close();
      const other = http2.connect('http://localhost:1');
      console.log(await new Promise((r) => other.on('error', (e) => r(e.code + ' ' + e.message))));
    `);
    assert.equal(out, [
      'ERR_POLICY_DENIED http2 denied by policy: /forbidden is not for scripts',
      'GET',
      '/headers yes',
      'ERR_POLICY_DENIED http2 denied by policy: only 127.0.0.1 and localhost:<test port>',
      '',
    ].join('\n'));
  });

  g.test('large bodies both ways (backpressure on each side); a stream the server resets; a stream the script destroys', async (ctx) => {
    const out = await ctx.output(`
      const http2 = require('node:http2');
      const session = http2.connect('${h2cBase}');
      const big = session.request({ ':method': 'POST', ':path': '/count' });
      let received = 0;
      big.on('data', (c) => { received += c.length; });
      for (let i = 0; i < 48; i++) big.write(Buffer.alloc(64 * 1024, 1));
      big.end();
      await new Promise((r, j) => { big.on('end', r); big.on('error', j); });
      console.log(received);
      const reset = session.request({ ':path': '/reset' });
      reset.resume();
      console.log(await new Promise((r) => reset.on('error', (e) => r(e.code + ' ' + e.message + ' ' + reset.rstCode))));
      const gone = session.request({ ':method': 'POST', ':path': '/headers' });
      gone.destroy();
      await new Promise((r) => gone.on('close', r));
      console.log('destroyed', gone.destroyed, gone.rstCode === undefined || gone.rstCode === 8);
      session.close();
    `);
    assert.equal(out, `${48 * 64 * 1024}\nERR_HTTP2_STREAM_ERROR Stream closed with error code NGHTTP2_REFUSED_STREAM 7\ndestroyed true true\n`);
  });

  g.test('a session the script leaves open is closed when the run ends (unref lets the run finish)', async (ctx) => {
    const out = await ctx.output(`
      const http2 = require('node:http2');
      const session = http2.connect('${h2cBase}');
      await new Promise((r) => session.on('connect', r));
      session.unref();
      console.log('connected');
    `);
    assert.equal(out, 'connected\n');
    for (let i = 0; i < 50 && sessions.open > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(sessions.open, 0);
  });
}, {
  pool: {
    get network() { return { fetchDefault: 'deny' as const, caCerts: [ca.caCert] }; },
    headerRules: parseHeaderConfig([
      { host: '127.0.0.1', headers: { Authorization: 'Bearer h2-secret' } },
      { host: '127.0.0.1', headers: { 'X-Static': 'always' } },
    ]),
    get policies() {
      const tlsPort = (tls.address() as AddressInfo).port;
      return parsePolicyConfig({
        http2: {
          pre: [{ url: hook('h2-rewrite.js', "export default (input) => input.operation === 'request' && input.path === '/old' ? { input: { ...input, path: '/headers', headers: { ...input.headers, 'x-rewritten': 'yes' } } } : undefined;") }],
          policies: [{
            url: hook('h2.js', `export default (input) => {
              if (input.operation === 'connect') {
                const p = input.url_parsed;
                return p.host === '127.0.0.1' || (p.host === 'localhost' && p.port === ${tlsPort}) ? true : { allow: false, reason: 'only 127.0.0.1 and localhost:<test port>' };
              }
              if (input.path === '/forbidden') return { allow: false, reason: input.path + ' is not for scripts' };
              return input.authority.startsWith('localhost') || input.headers.authorization === 'Bearer h2-secret';
            };`),
          }],
        },
      });
    },
  },
});

guestSuite('node:http2 per-run limits', (g) => {
  g.test('sessions and streams open at once; received bytes within fetch\'s per-run budget', async (ctx) => {
    const out = await ctx.output(`
      const http2 = require('node:http2');
      const a = http2.connect('${h2cBase}');
      const b = http2.connect('${h2cBase}');
      console.log(await new Promise((r) => b.on('error', (e) => r(e.code + ' ' + e.message))));
      const s1 = a.request({ ':method': 'POST', ':path': '/count' });
      const s2 = a.request({ ':method': 'POST', ':path': '/count' });
      const s3 = a.request({ ':method': 'POST', ':path': '/count' });
      console.log(await new Promise((r) => s3.on('error', (e) => r(e.code + ' ' + e.message))));
      s1.end(Buffer.alloc(10));
      s1.resume();
      await new Promise((r) => s1.on('close', r));
      s2.end(Buffer.alloc(100 * 1024));
      s2.resume();
      console.log(await new Promise((r) => s2.on('error', (e) => r(e.code + ' ' + e.message))));
      a.close();
    `);
    assert.equal(out, [
      'ERR_RUNJS_HTTP2_TOO_MANY_SESSIONS http2: more than 1 HTTP/2 sessions of this execution are open at once; close earlier ones first',
      'ERR_RUNJS_HTTP2_TOO_MANY_STREAMS http2: more than 2 HTTP/2 streams of this execution are open at once; finish earlier ones first',
      'ERR_RUNJS_HTTP2_RECEIVE_LIMIT http2: the execution received more than 65536 bytes from the network (the per-execution limit, shared with fetch response bodies)',
      '',
    ].join('\n'));
  });
}, {
  pool: {
    hostOpLimits: {
      ...DEFAULT_HOST_OP_LIMITS,
      fetch: { ...DEFAULT_HOST_OP_LIMITS.fetch, maxResponseBytesPerRun: 64 * 1024 },
      http2: { maxSessions: 1, maxStreams: 2 },
    },
    get policies() {
      return parsePolicyConfig({ http2: { policies: [{ url: hook('allow-all.js', 'export default () => true;') }] } });
    },
  },
});

// A Rego policy (issue 14's end-to-end case for http2): connections only to 127.0.0.1, streams
// only under /test.Echo/ and /headers, by authority and path.
const H2_REGO = `package mcp.http2

default allow := false

allow if {
  input.operation == "connect"
  input.url_parsed.host == "127.0.0.1"
}

allow if {
  input.operation == "request"
  startswith(input.authority, "127.0.0.1:")
  some prefix in ["/test.Echo/", "/headers"]
  startswith(input.path, prefix)
}
`;

guestSuite('node:http2 under a Rego policy', (g) => {
  g.test('connect decided by host, each stream by authority and path', async (ctx) => {
    const res = await ctx.run(`${GRPC}
      const session = http2.connect('${h2cBase}');
      console.log(JSON.stringify(await call(session, '/test.Echo/Unary', ['rego'])));
      const denied = session.request({ ':path': '/count' });
      console.log(await new Promise((r) => denied.on('error', (e) => r(e.code))));
      session.close();
      const other = http2.connect('http://localhost:1');
      console.log(await new Promise((r) => other.on('error', (e) => r(e.code))));
    `);
    assert.equal(res.outcome.status, 'completed', JSON.stringify(res));
    assert.equal(res.output, [
      '{"status":200,"type":"application/grpc","messages":["REGO"],"grpcStatus":"0","grpcMessage":"OK","rstCode":0}',
      'ERR_POLICY_DENIED',
      'ERR_POLICY_DENIED',
      '',
    ].join('\n'));
    const entries = res.decisions?.entries ?? [];
    assert.deepEqual(entries.map((e) => [e.verdict, (e.input as { operation: string }).operation]), [
      ['allow', 'connect'], ['allow', 'request'], ['deny', 'request'], ['deny', 'connect'],
    ]);
  });
}, {
  pool: {
    get policies() {
      return parsePolicyConfig({ http2: { policies: [{ url: hook('h2.rego', H2_REGO) }] } });
    },
  },
});
