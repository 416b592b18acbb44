// wss on both engines against a WebSocket server whose certificate a CA made by the test signed:
// refused while the CA is unknown (error, then close 1006), trusted once the operator adds it
// (--fetch-ca-file → WorkerSettings.network.caCerts); the decision log's egress counts the socket.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';
import { startWsFixture, type WsFixture } from '../helpers/ws-server.ts';
import { makeTestCa, type TestCa } from '../helpers/test-ca.ts';

let wss: WsFixture;
let ca: TestCa;
before(async () => {
  ca = await makeTestCa();
  wss = await startWsFixture({ tls: { key: ca.key, cert: ca.cert } });
});
after(() => wss.close());

const ECHO = (base: () => string): string => `
  const s = new WebSocket('${base()}/echo');
  const events = [];
  await new Promise((resolve) => {
    s.onopen = () => { events.push('open'); s.send('over tls'); };
    s.onmessage = (e) => { events.push('message ' + e.data); s.close(1000, 'done'); };
    s.onerror = () => events.push('error');
    s.onclose = (e) => { events.push('close ' + e.code + ' ' + e.wasClean); resolve(); };
  });
  console.log(events.join(', '));
`;

guestSuite('WebSocket wss, CA unknown', (g) => {
  g.test('a certificate no trusted CA signed fails the connection: error, then close 1006', async (ctx) => {
    assert.equal(await ctx.output(ECHO(() => wss.base)), 'error, close 1006 false\n');
  });
}, { pool: { network: { fetchDefault: 'allow' } } });

guestSuite('WebSocket wss, CA added by the operator', (g) => {
  g.test('echo over TLS; egress counts one connection and the message bytes both ways', async (ctx) => {
    const res = await ctx.run(ECHO(() => wss.base));
    assert.equal(res.output, 'open, message over tls, close 1000 true\n', JSON.stringify(res.outcome));
    assert.deepEqual(res.decisions?.egress, { websocket: { requests: 1, sent_bytes: 8, received_bytes: 8 } });
  });
}, { pool: { get network() { return { fetchDefault: 'allow' as const, caCerts: [ca.caCert] }; } } });
