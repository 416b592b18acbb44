// @grpc/grpc-js imported via `npm:` on both engines (issue 16): the supervisor's ModuleService
// bundles it from a registry this test serves (packed from node_modules), and the guest's
// node:http2 — with the net/tls/dns stand-ins grpc-js opens its connection through — carries a
// unary and a server-streaming call to the host's own grpc-js server on 127.0.0.1: h2c, and TLS
// to `localhost` with a certificate from the test CA (trusted through the network settings).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { guestSuite } from '../helpers/both-engines.ts';
import { OpRouter } from '../../supervisor/pool/op-router.ts';
import { ModuleService } from '../../supervisor/modules/module-service.ts';
import { startNpmRegistry, type NpmRegistry } from '../helpers/npm-registry.ts';
import { publishInstalled } from '../helpers/npm-installed.ts';
import { GREETER_PROTO, greeterScript, startGreeter } from '../helpers/grpc-greeter.ts';
import { makeTestCa, type TestCa } from '../helpers/test-ca.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';

let registry: NpmRegistry;
let ca: TestCa;
let h2c: { port: number; close(): void };
let tls: { port: number; close(): void };
const dir = mkdtempSync(path.join(tmpdir(), 'runjs-grpc-'));
const hook = path.join(dir, 'http2-hook.js');
writeFileSync(hook, "export default (input) => input.operation === 'request' || ['127.0.0.1', 'localhost'].includes(input.url_parsed.host);\n");

before(async () => {
  registry = await startNpmRegistry();
  publishInstalled(registry, '@grpc/grpc-js');
  ca = await makeTestCa();
  const definition = protoLoader.fromJSON(GREETER_PROTO, {});
  h2c = await startGreeter(grpc, definition);
  tls = await startGreeter(grpc, definition, grpc.ServerCredentials.createSsl(null, [{ private_key: Buffer.from(ca.key), cert_chain: Buffer.from(ca.cert) }]));
});
after(async () => {
  h2c.close();
  tls.close();
  await registry.close();
});

// The registry starts in before(); the service reads its URL at each request.
const service = new ModuleService({
  cacheDir: path.join(dir, 'modules'),
  registry: { get registry() { return `${registry.url}/`; }, scopes: new Map(), tokens: new Map() },
});

const REPLIES = JSON.stringify(['Hello, runjs', ['Hello #1, stream', 'Hello #2, stream', 'Hello #3, stream']]);
const RUN = { timeoutMs: 120_000, heapMemoryMaxMb: 128 };

guestSuite('npm:@grpc/grpc-js', (g) => {
  g.test('a unary and a server-streaming call over h2c', async (ctx) => {
    assert.deepEqual((await ctx.run(greeterScript(`127.0.0.1:${h2c.port}`), RUN)).outcome, { status: 'completed', result: REPLIES });
  });

  g.test('the same over TLS (ALPN h2) to localhost, the certificate checked by the host', async (ctx) => {
    assert.deepEqual((await ctx.run(greeterScript(`localhost:${tls.port}`, 'calls', 'grpc.credentials.createSsl()'), RUN)).outcome, { status: 'completed', result: REPLIES });
  });

  g.test('the net/tls/dns stand-ins grpc-js connects through: no raw sockets, no DNS from the guest', async (ctx) => {
    const out = await ctx.output(`
      const net = require('node:net'); const dns = require('node:dns'); const http = require('node:http'); const tls = require('node:tls');
      const out = [net.isIP('127.0.0.1'), net.isIP('::1'), net.isIP('example.com'), net.isIPv4('1.2.3.256'), net.isIPv6('fe80::1%eth0')];
      out.push(await dns.promises.lookup('localhost', { all: true }), await dns.promises.lookup('api.example.com'), await dns.promises.resolveTxt('x').catch((e) => e.code));
      const s = net.connect({ host: '10.0.0.1', port: 50051 });
      await new Promise((r) => s.once('connect', r));
      out.push(s.remoteAddress, s.remotePort);
      try { s.write('x'); } catch (e) { out.push(e.code, e.message); }
      const t = tls.connect({ socket: s, servername: 'api.example.com' });
      await new Promise((r) => t.once('secureConnect', r));
      out.push(t.encrypted, t.alpnProtocol, t.servername);
      try { http.request('http://x'); } catch (e) { out.push(e.message.slice(0, 44)); }
      console.log(JSON.stringify(out));
    `);
    assert.equal(out, `${JSON.stringify([4, 6, 0, false, true, [{ address: '127.0.0.1', family: 4 }], { address: 'api.example.com', family: 0 }, 'ENODATA', '10.0.0.1', 50051,
      'ERR_RUNJS_NET_UNSUPPORTED', 'writing to a net socket is not supported in runjs: scripts have no raw sockets (a net or tls socket only carries an HTTP/2 session that http2.connect opens on the host)',
      true, 'h2', 'api.example.com', 'http.request (use fetch) is not supported in'])}\n`);
  });
}, {
  ops: new OpRouter([service.routes()], () => {}),
  pool: {
    externalModules: true,
    policies: parsePolicyConfig({ http2: { policies: [{ url: pathToFileURL(hook).href }] } }),
    get network() { return { fetchDefault: 'deny' as const, caCerts: [ca.caCert] }; },
  },
});
