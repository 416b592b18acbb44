// fetch() decided by a Rego policy file configured through the policies document (as
// --policies-json gives it): the allow-list in test/fixtures/rego/policies/fetch-allowlist.rego,
// by host, port, path prefix and method, against a real HTTP server on 127.0.0.1. Every hop of a
// redirect is decided; print() lines land in the decision log.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guestSuite } from '../helpers/both-engines.ts';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';

const POLICY = readFileSync(new URL('../fixtures/rego/policies/fetch-allowlist.rego', import.meta.url), 'utf8');

let http: HttpFixture;
let policyUrl = '';
before(async () => {
  http = await startHttpFixture();
  const dir = mkdtempSync(join(tmpdir(), 'runjs-fetch-rego-'));
  writeFileSync(join(dir, 'fetch.rego'), POLICY.replaceAll('{PORT}', `{${http.port}}`));
  policyUrl = pathToFileURL(join(dir, 'fetch.rego')).href;
});
after(() => http.close());

guestSuite('fetch under a Rego allow-list', (g) => {
  g.test('host, port, path prefix and method each decide', async (ctx) => {
    const res = await ctx.run(`
      const show = async (url, init) => {
        try { const r = await fetch(url, init); console.log('ok', r.status); } catch (e) { console.log(e.code, e.message); }
      };
      await show('${http.base}/hello');
      await show('${http.base}/echo', { method: 'POST', body: 'x' });
      await show('${http.base}/echo', { method: 'DELETE' });
      await show('${http.base}/chunks');
      await show('http://localhost:${http.port}/hello');
      await show('http://localhost:${http.port}/echo');
      await show('http://127.0.0.1:1/hello');
    `);
    assert.equal(res.output, [
      'ok 200',
      'ok 200',
      `ERR_POLICY_DENIED fetch denied by policy: DELETE ${http.base}/echo is not allowed`,
      `ERR_POLICY_DENIED fetch denied by policy: GET ${http.base}/chunks is not allowed`,
      'ok 200',
      `ERR_POLICY_DENIED fetch denied by policy: GET http://localhost:${http.port}/echo is not allowed`,
      'ERR_POLICY_DENIED fetch denied by policy: GET http://127.0.0.1:1/hello is not allowed',
      '',
    ].join('\n'));
    const entries = res.decisions?.entries ?? [];
    assert.deepEqual(entries.map((e) => e.verdict), ['allow', 'allow', 'deny', 'deny', 'allow', 'deny', 'deny']);
    assert.deepEqual(entries[0]?.steps[0]?.prints, ['allowed by route 127.0.0.1 /hello']);
    assert.equal(entries[2]?.steps[0]?.prints, undefined);
  });

  g.test('every redirect hop is decided: a hop to a path outside the list is refused', async (ctx) => {
    const to = (target: string): string => `${http.base}/redirect?to=${encodeURIComponent(target)}`;
    const res = await ctx.run(`
      console.log((await fetch('${to(`http://localhost:${http.port}/hello`)}')).status);
      try { await fetch('${to(`http://localhost:${http.port}/echo`)}'); } catch (e) { console.log(e.code, e.message); }
    `);
    assert.equal(res.output, `200\nERR_POLICY_DENIED fetch denied by policy: GET http://localhost:${http.port}/echo is not allowed\n`);
    assert.deepEqual(res.decisions?.entries.map((e) => [e.verdict, (e.input as { url: string }).url]), [
      ['allow', to(`http://localhost:${http.port}/hello`)],
      ['allow', `http://localhost:${http.port}/hello`],
      ['allow', to(`http://localhost:${http.port}/echo`)],
      ['deny', `http://localhost:${http.port}/echo`],
    ]);
  });
}, {
  pool: {
    network: { fetchDefault: 'deny' as const },
    get policies() {
      return parsePolicyConfig({ fetch: { policies: [{ url: policyUrl }] } });
    },
  },
});
