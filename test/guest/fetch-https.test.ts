// fetch over https against a server whose certificate a CA made by the test signed: refused
// while the CA is unknown (Node's bundled roots only), trusted once the operator adds it
// (--fetch-ca-file → WorkerSettings.network.caCerts), on both engines.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.ts';
import { makeTestCa, type TestCa } from '../helpers/test-ca.ts';

let https: HttpFixture;
let ca: TestCa;
before(async () => {
  ca = await makeTestCa();
  https = await startHttpFixture({ tls: { key: ca.key, cert: ca.cert } });
});
after(() => https.close());

guestSuite('fetch https, CA unknown', (g) => {
  g.test('a certificate no trusted CA signed fails the fetch with the TLS reason as its cause', async (ctx) => {
    const out = await ctx.output(`
      try { await fetch('${https.base}/hello'); console.log('fetched'); }
      catch (e) { console.log(e.name, e.message, e.cause?.code, e.cause?.message); }
    `);
    assert.equal(out, 'TypeError fetch failed SELF_SIGNED_CERT_IN_CHAIN self-signed certificate in certificate chain\n');
  });
}, { pool: { network: { fetchDefault: 'allow' } } });

guestSuite('fetch https, CA added by the operator', (g) => {
  g.test('GET and a POST echo over TLS; the response URL keeps https', async (ctx) => {
    const out = await ctx.output(`
      const r = await fetch('${https.base}/hello');
      console.log(r.status, r.url.startsWith('https://127.0.0.1:'), await r.text());
      const e = await (await fetch('${https.base}/echo', { method: 'POST', body: 'over tls' })).json();
      console.log(e.method, e.body);
    `);
    assert.equal(out, '200 true hello\nPOST over tls\n');
  });
}, { pool: { get network() { return { fetchDefault: 'allow' as const, caCerts: [ca.caCert] }; } } });
