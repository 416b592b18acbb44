// The `fetch` category's post hooks on both engines, against a real HTTP server and a real
// OPA-compatible policy server on 127.0.0.1: a JavaScript hook that redacts a text body and adds a
// header, one that rewrites a binary body (body_base64), one that denies, one that throws, and an
// OPA post hook (its document is {phase: "post", input, output}); the decision log records each.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guestSuite } from '../helpers/both-engines.ts';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';

let http: HttpFixture;
let opaBase = '';
const opaDocs: { phase?: string; input?: { method: string; url: string }; output?: { status: number } }[] = [];
let stopOpa = (): void => {};
before(async () => {
  http = await startHttpFixture();
  // An OPA-compatible server for post decisions: a 404 response never reaches the script.
  const opa = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const doc = (JSON.parse(body) as { input: (typeof opaDocs)[number] }).input;
      opaDocs.push(doc);
      const allow = doc.phase !== 'post' || doc.output?.status !== 404;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: { allow, reason: 'responses with status 404 are withheld' } }));
    });
  });
  await new Promise<void>((r) => opa.listen(0, '127.0.0.1', r));
  opaBase = `http://127.0.0.1:${(opa.address() as AddressInfo).port}`;
  stopOpa = () => { opa.closeAllConnections(); opa.close(); };
});
after(async () => { stopOpa(); await http.close(); });

const hookDir = mkdtempSync(join(tmpdir(), 'runjs-post-hooks-'));
function hook(name: string, code: string): string {
  writeFileSync(join(hookDir, name), code);
  return pathToFileURL(join(hookDir, name)).href;
}

// One hook routes on the path so one configuration covers every case. (A hook's isolate has plain
// ECMAScript only: no URL, no atob; the input document's url_parsed is there for this.)
const POST_HOOK = `
export default (output, meta) => {
  const path = meta.input.url_parsed.path;
  if (path === '/echo') return { output: { ...output, body: output.body.replace(/\\b\\d{4}(-\\d{4}){3}\\b/g, '[card]'), headers: { ...output.headers, 'x-redacted': meta.input.method } } };
  if (path === '/binary') return { output: { ...output, status: 203, status_text: 'Trimmed', body_base64: output.body_base64.slice(0, 4) } };
  if (path === '/chunks') return { allow: false, reason: 'chunked answers are not for scripts' };
  if (meta.input.url_parsed.query === 'boom') throw new Error('hook exploded');
  return undefined;
};`;

guestSuite('fetch post hooks', (g) => {
  g.test('a JavaScript post hook redacts a text body and adds a header; the script sees only the result', async (ctx) => {
    const res = await ctx.run(`
      const r = await fetch('${http.base}/echo', { method: 'POST', body: 'card 1234-5678-9012-3456 ok' });
      const text = await r.text();
      console.log(r.status, r.headers.get('x-redacted'), JSON.parse(text).body);
    `);
    assert.equal(res.output, '200 POST card [card] ok\n', JSON.stringify(res.outcome));
    const post = res.decisions?.entries.filter((e) => e.phase === 'post') ?? [];
    assert.equal(post.length, 1);
    assert.deepEqual(post[0]!.steps.map((s) => [s.stage, s.verdict, s.rewrote ?? false]), [['post', 'abstain', true], ['post', 'allow', false]]);
  });

  g.test('a binary body reaches the hook as body_base64; status and status text can be rewritten', async (ctx) => {
    const out = await ctx.output(`
      const r = await fetch('${http.base}/binary');
      const b = new Uint8Array(await r.arrayBuffer());
      console.log(r.status, r.statusText, b.length, b.join());
    `);
    assert.equal(out, '203 Trimmed 3 255,0,128\n');
  });

  g.test('a post hook that denies rejects the fetch with the policy error; one that throws fails it', async (ctx) => {
    const out = await ctx.output(`
      for (const path of ['/chunks', '/hello?boom']) {
        try { await fetch('${http.base}' + path); console.log('fetched'); }
        catch (e) { console.log(e.code, e.message); }
      }
    `);
    const hookUrl = pathToFileURL(join(hookDir, 'post.js')).href;
    assert.equal(out, [
      'ERR_POLICY_DENIED fetch denied by policy: chunked answers are not for scripts',
      `ERR_POLICY_FAILED fetch policy failed: ${hookUrl}: threw: hook exploded`,
      '',
    ].join('\n'));
  });

  g.test('an OPA post hook sees {phase: "post", input, output} and withholds a 404', async (ctx) => {
    opaDocs.length = 0;
    const out = await ctx.output(`
      console.log((await fetch('${http.base}/hello')).status);
      try { await fetch('${http.base}/missing'); } catch (e) { console.log(e.code, e.message); }
    `);
    assert.equal(out, '200\nERR_POLICY_DENIED fetch denied by policy: responses with status 404 are withheld\n');
    const posts = opaDocs.filter((d) => d.phase === 'post');
    assert.deepEqual(posts.map((d) => [d.input?.method, d.input?.url, d.output?.status]), [
      ['GET', `${http.base}/hello`, 200],
      ['GET', `${http.base}/missing`, 404],
    ]);
  });
}, {
  pool: {
    network: { fetchDefault: 'deny' },
    get policies() {
      return parsePolicyConfig({ fetch: { post: [{ url: hook('post.js', POST_HOOK) }, { url: opaBase }] } });
    },
  },
});
