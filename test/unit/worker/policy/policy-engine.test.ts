// The policy engine against real parts: an OPA-compatible HTTP server written here (127.0.0.1) and
// JavaScript hook files written to a temp dir, parsed by the same config code the server uses.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { parsePolicyConfig } from '../../../../supervisor/config/policy-config.ts';
import { PolicyEngine, type RunPolicy } from '../../../../worker/policy/policy-engine.ts';
import { PolicyDeniedError, PolicyFailedError } from '../../../../worker/policy/policy-errors.ts';

interface Seen { path: string; body: { input: unknown } }

/** An OPA stand-in: the policy path picks the behaviour. */
async function startOpa(): Promise<{ base: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { text += c; });
    req.on('end', () => {
      const body = JSON.parse(text) as { input: Record<string, unknown> };
      seen.push({ path: req.url ?? '', body });
      const send = (status: number, doc: unknown): void => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(doc)); };
      const input = body.input;
      switch (req.url) {
        case '/v1/data/mcp/fetch': send(200, { result: { allow: String(input['url'] ?? '').startsWith('https://api.example.com/') } }); return;
        case '/v1/data/allow': send(200, { result: { allow: true } }); return;
        case '/v1/data/deny': send(200, { result: { allow: false, reason: 'opa says no' } }); return;
        case '/v1/data/ask': send(200, { result: { allow: false, ask: 'opa wants a human' } }); return;
        case '/v1/data/missing': send(200, {}); return;
        case '/v1/data/broken': send(503, { error: 'down' }); return;
        case '/v1/data/slow': setTimeout(() => send(200, { result: { allow: true } }), 2000); return;
        default: send(404, {});
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const dir = mkdtempSync(join(tmpdir(), 'runjs-policy-'));
function hook(name: string, code: string): string {
  const file = join(dir, name);
  writeFileSync(file, code);
  return pathToFileURL(file).href;
}

let opa: Awaited<ReturnType<typeof startOpa>>;
const engines: PolicyEngine[] = [];
const logged: string[] = [];
function runPolicy(config: unknown): RunPolicy {
  const engine = new PolicyEngine(parsePolicyConfig(config), { log: (l) => logged.push(l) });
  engines.push(engine);
  return engine.forRun();
}

before(async () => { opa = await startOpa(); });
after(() => {
  for (const e of engines) e.dispose();
  opa.server.closeAllConnections();
  opa.server.close();
});

const fetchInput = (url: string) => ({ operation: 'fetch', url, method: 'GET', headers: { authorization: 'Bearer sekrit-token', accept: '*/*' } });

describe('OPA-style sources', () => {
  test('POST <base>/v1/data/<policy_path> with {input}; result.allow === true allows, otherwise deny', async () => {
    const p = runPolicy({ fetch: { policies: [{ url: opa.base }] } });
    const input = fetchInput('https://api.example.com/x');
    assert.deepEqual(await p.decide('fetch', input), { allow: true, input });
    assert.deepEqual(opa.seen.at(-1), { path: '/v1/data/mcp/fetch', body: { input } });
    const denied = await p.decide('fetch', fetchInput('https://evil.example/'), { defaultReason: 'GET https://evil.example/ is not allowed' });
    assert.equal(denied.allow, false);
    assert.equal(denied.reason, 'GET https://evil.example/ is not allowed');
    await assert.rejects(p.enforce('fetch', fetchInput('https://evil.example/')), (e: unknown) => {
      assert.ok(e instanceof PolicyDeniedError);
      assert.equal(e.message, 'fetch denied by policy: not allowed');
      assert.equal(e.code, 'ERR_POLICY_DENIED');
      return true;
    });
  });

  test('a reason from the server; a missing result denies', async () => {
    const p = runPolicy({ fetch: { policies: [{ url: opa.base, policy_path: 'deny' }] }, websocket: { policies: [{ url: opa.base, policy_path: 'missing' }] } });
    assert.equal((await p.decide('fetch', {})).reason, 'opa says no');
    assert.deepEqual(await p.decide('websocket', {}), { allow: false, reason: 'the policy returned no result', input: {} });
  });

  test('non-2xx and a slow server are errors that abort, not denials', async () => {
    const p = runPolicy({
      fetch: { policies: [{ url: opa.base, policy_path: 'broken' }] },
      modules: { policies: [{ url: `${opa.base}/`, policy_path: 'slow', timeout_ms: 200 }] },
      subprocess: { policies: [{ url: 'http://127.0.0.1:1' }] },
    });
    await assert.rejects(p.decide('fetch', {}), (e: unknown) => {
      assert.ok(e instanceof PolicyFailedError);
      assert.equal(e.message, `fetch policy failed: ${opa.base}: OPA returned HTTP 503`);
      assert.equal(e.code, 'ERR_POLICY_FAILED');
      return true;
    });
    const t0 = performance.now();
    await assert.rejects(p.decide('modules', {}), { message: `modules policy failed: ${opa.base}/: OPA did not answer within 200 ms` });
    assert.ok(performance.now() - t0 < 1500);
    await assert.rejects(p.decide('subprocess', {}), { message: /^subprocess policy failed: http:\/\/127\.0\.0\.1:1: OPA request failed: / });
  });
});

describe('chains', () => {
  test('all: first deny stops; any: first allow stops; empty chains allow', async () => {
    const allow = { url: opa.base, policy_path: 'allow' };
    const deny = { url: opa.base, policy_path: 'deny' };
    const broken = { url: opa.base, policy_path: 'broken' };
    const p = runPolicy({
      fetch: { mode: 'all', policies: [allow, deny, broken] },
      websocket: { mode: 'any', policies: [deny, allow, broken] },
      http2: { mode: 'any', policies: [deny, deny] },
      modules: { mode: 'any' },
      filesystem: {},
    });
    assert.equal((await p.decide('fetch', {})).allow, false); // broken never asked
    assert.equal((await p.decide('websocket', {})).allow, true); // broken never asked
    assert.deepEqual(await p.decide('http2', {}), { allow: false, reason: 'opa says no', input: {} });
    assert.equal((await p.decide('modules', {})).allow, true);
    assert.equal((await p.decide('filesystem', {})).allow, true);
    const log = p.log();
    assert.deepEqual(log.entries.map((e) => [e.category, e.verdict, e.steps.map((s) => s.verdict).join(',')]), [
      ['fetch', 'deny', 'allow,deny'], ['websocket', 'allow', 'deny,allow'], ['http2', 'deny', 'deny,deny'], ['modules', 'allow', ''], ['filesystem', 'allow', ''],
    ]);
  });

  test('stack: every stacked chain must allow too', async () => {
    const p = runPolicy({
      fetch: { mode: 'any', policies: [{ url: opa.base, policy_path: 'allow' }], stack: [{ policies: [{ url: opa.base, policy_path: 'deny' }] }] },
    });
    const d = await p.decide('fetch', {});
    assert.deepEqual(d, { allow: false, reason: 'opa says no', input: {} });
    assert.deepEqual(p.log().entries[0]?.steps.map((s) => [s.stage, s.verdict]), [['policy', 'allow'], ['stack', 'deny']]);
  });

  test('an unconfigured category answers the operation\'s default', async () => {
    const p = runPolicy({});
    assert.equal(p.configured('fetch'), false);
    assert.deepEqual(await p.decide('fetch', {}), { allow: true, input: {} });
    assert.deepEqual(await p.decide('http2', {}, { unconfigured: 'deny' }), { allow: false, reason: 'no http2 policy is configured', input: {} });
    assert.deepEqual(p.log().entries.map((e) => [e.configured, e.verdict]), [[false, 'allow'], [false, 'deny']]);
  });
});

describe('JavaScript hooks', () => {
  test('allow, deny with a reason, abstain; rewriting the input the chain then sees', async () => {
    const rewrite = hook('rewrite.js', `export default function (input, meta) {
      if (meta.phase !== 'pre' || meta.category !== 'fetch') throw new Error('bad meta');
      return { input: { ...input, url: input.url.replace('http://', 'https://') } };
    }`);
    const deny = hook('deny.js', 'export default (input) => input.url.includes("blocked") ? { allow: false, reason: "blocked host" } : undefined;');
    const allow = hook('allow.mjs', 'export default async (input) => input.url.startsWith("https://");');
    const p = runPolicy({ fetch: { pre: [{ url: rewrite }, { url: deny }], policies: [{ url: allow }, { url: opa.base }] } });
    const d = await p.decide('fetch', fetchInput('http://api.example.com/a'));
    assert.equal(d.allow, true);
    assert.equal((d.input as { url: string }).url, 'https://api.example.com/a');
    assert.equal((opa.seen.at(-1)?.body.input as { url: string }).url, 'https://api.example.com/a');
    assert.deepEqual(await p.decide('fetch', fetchInput('https://blocked.example/')), { allow: false, reason: 'blocked host', input: fetchInput('https://blocked.example/') });
    assert.deepEqual(p.log().entries[0]?.steps.map((s) => [s.stage, s.verdict, s.rewrote ?? false]),
      [['pre', 'abstain', true], ['pre', 'abstain', false], ['policy', 'allow', false], ['policy', 'allow', false]]);
  });

  test('post hooks redact or deny the output', async () => {
    const redact = hook('redact.js', `export default function (output, meta) {
      return { output: { ...output, body: output.body.replaceAll(/\\d{4}-\\d{4}/g, '####'), for: meta.input.url } };
    }`);
    const deny = hook('deny-big.js', 'export default (output) => output.body.length < 100 || { allow: false, reason: "response too big" };');
    const p = runPolicy({ fetch: { post: [{ url: redact }, { url: deny }] } });
    const out = await p.enforcePost('fetch', { status: 200, body: 'card 1234-5678' }, { url: 'https://x/' });
    assert.deepEqual(out, { status: 200, body: 'card ####', for: 'https://x/' });
    await assert.rejects(p.enforcePost('fetch', { status: 200, body: 'x'.repeat(200) }, {}), { message: 'fetch denied by policy: response too big' });
    assert.deepEqual(await runPolicy({}).post('fetch', 'o', 'i'), { allow: true, output: 'o' });
  });

  test('a throwing hook, a bad return value and a timeout are errors, not denials', async () => {
    const p = runPolicy({
      fetch: { pre: [{ url: hook('throws.js', 'export default () => { throw new TypeError("boom"); }') }] },
      websocket: { pre: [{ url: hook('number.js', 'export default () => 42;') }] },
      modules: { pre: [{ url: hook('loop.js', 'export default () => { for (;;) {} }'), timeout_ms: 100 }] },
      subprocess: { pre: [{ url: hook('never.js', 'export default () => new Promise(() => {});'), timeout_ms: 100 }] },
    });
    await assert.rejects(p.decide('fetch', {}), (e: unknown) => e instanceof PolicyFailedError && /^fetch policy failed: file:\/\/.*throws\.js: threw: boom$/.test(e.message));
    await assert.rejects(p.decide('websocket', {}), /returned number; a hook returns a boolean, an object \{allow, reason, input\} or undefined/);
    for (const category of ['modules', 'subprocess'] as const) {
      const t0 = performance.now();
      await assert.rejects(p.decide(category, {}), { message: new RegExp(`^${category} policy failed: file://.*: timed out after 100 ms$`) });
      assert.ok(performance.now() - t0 < 2000, `${category} took ${performance.now() - t0} ms`);
    }
    // The timed-out hook's isolate is rebuilt: it times out again rather than failing to load.
    await assert.rejects(p.decide('modules', {}), /timed out after 100 ms/);
    assert.deepEqual(p.log().entries.map((e) => e.verdict), ['error', 'error', 'error', 'error', 'error']);
  });

  test('hooks run in their own isolate: no process, require, host globals or unlisted capabilities', async () => {
    const probe = hook('probe.js', `export default () => ({ allow: true, reason: JSON.stringify({
      process: typeof process, require: typeof require, fetch: typeof fetch, setTimeout: typeof setTimeout,
      globalKeys: Object.getOwnPropertyNames(globalThis).filter((k) => !/^[A-Z]/.test(k)).sort(),
      runjs: typeof __runjs_host,
    }) })`);
    const p = runPolicy({ fetch: { policies: [{ url: probe }] } });
    await p.decide('fetch', {});
    const seen = JSON.parse(p.log().entries[0]?.steps[0]?.reason ?? '{}') as Record<string, unknown>;
    assert.deepEqual({ ...seen, globalKeys: undefined }, { process: 'undefined', require: 'undefined', fetch: 'undefined', setTimeout: 'undefined', runjs: 'undefined', globalKeys: undefined });
    assert.ok(!(seen['globalKeys'] as string[]).some((k) => ['process', 'require', 'global', 'fetch', 'Buffer'].includes(k)), String(seen['globalKeys']));
    const usesFetch = hook('uses-fetch.js', 'export default async () => (await fetch("http://127.0.0.1:1/")).ok;');
    await assert.rejects(runPolicy({ fetch: { policies: [{ url: usesFetch }] } }).decide('fetch', {}), /threw: fetch is not defined$/);
  });

  test('the fetch capability reaches a server for the hook', async () => {
    const url = hook('asks-opa.js', `export default async (input) => {
      const r = await fetch(${JSON.stringify(`${opa.base}/v1/data/deny`)}, { method: 'POST', body: JSON.stringify({ input }) });
      const doc = await r.json();
      console.log('asked', r.status);
      return { allow: r.status === 200 && doc.result.allow, reason: 'via fetch: ' + doc.result.reason };
    }`);
    const p = runPolicy({ fetch: { policies: [{ url, capabilities: ['fetch'] }] } });
    assert.deepEqual(await p.decide('fetch', { a: 1 }), { allow: false, reason: 'via fetch: opa says no', input: { a: 1 } });
    assert.ok(logged.some((l) => l.endsWith('asks-opa.js: log: asked 200')), logged.join('\n'));
  });
});

describe('the decision log', () => {
  test('entries carry category, redacted input summary, steps, verdict, reason and time', async () => {
    const p = runPolicy({ fetch: { policies: [{ url: opa.base }] } });
    p.redactor.addValue('injected-secret-value');
    const input = { ...fetchInput('https://evil.example/?access_token=abc123&q=1'), headers: { authorization: 'Bearer x', 'x-trace': 'has injected-secret-value in it', cookie: 'a=b' }, body: 'y'.repeat(5000) };
    await p.decide('fetch', input);
    const [entry] = p.log().entries;
    assert.ok(entry);
    assert.equal(entry.category, 'fetch');
    assert.equal(entry.phase, 'decide');
    assert.equal(entry.verdict, 'deny');
    assert.equal(entry.reason, 'not allowed');
    assert.match(entry.at, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(entry.steps.map((s) => [s.stage, s.source, s.verdict]), [['policy', opa.base, 'deny']]);
    const summary = entry.input as { url: string; headers: Record<string, string>; body: string };
    assert.equal(summary.url, 'https://evil.example/?access_token=[redacted]&q=1');
    assert.deepEqual(summary.headers, { authorization: '[redacted]', 'x-trace': 'has [redacted] in it', cookie: '[redacted]' });
    assert.match(summary.body, /^y{1024}… \[3976 more characters\]$/);
    // The OPA server saw the real input: redaction is for the log only.
    assert.equal((opa.seen.at(-1)?.body.input as { headers: Record<string, string> }).headers['authorization'], 'Bearer x');
  });

  test('bounded: at most 1000 entries, the rest counted as dropped; nothing after close', async () => {
    const p = runPolicy({ modules: {} });
    for (let i = 0; i < 1005; i++) await p.decide('modules', { i });
    let log = p.log();
    assert.equal(log.entries.length, 1000);
    assert.equal(log.dropped, 5);
    p.close();
    await p.decide('modules', {});
    log = p.log();
    assert.equal(log.entries.length + log.dropped, 1005);
  });
});

describe('ask: a source wants a human to confirm', () => {
  const ask = hook('ask.js', 'export default (input) => ({ ask: `Run ${input.code}?` })');
  const askTwice = hook('ask-twice.js', 'export default () => ({ ask: "Really?" })');
  const allow = hook('ask-allow.js', 'export default () => true');
  const deny = hook('ask-deny.js', 'export default () => ({ allow: false, reason: "no" })');

  test('with canAsk the decision allows on condition, every question one a line; without it, it denies with the question', async () => {
    const p = runPolicy({ mcp_run_js: { pre: [{ url: askTwice }], policies: [{ url: ask }, { url: opa.base, policy_path: 'ask' }] } });
    assert.deepEqual(await p.decide('mcp_run_js', { code: 'x' }, { canAsk: true }), { allow: true, ask: 'Really?\nRun x?\nopa wants a human', input: { code: 'x' } });
    assert.deepEqual(await p.decide('mcp_run_js', { code: 'x' }), {
      allow: false, reason: 'needs a human\'s approval, which this operation cannot ask for: Really?\nRun x?\nopa wants a human', input: { code: 'x' },
    });
    assert.deepEqual(p.log().entries.map((e) => [e.verdict, e.steps.map((s) => s.verdict).join(',')]), [['ask', 'ask,ask,ask'], ['deny', 'ask,ask,ask']]);
  });

  test('all: a deny still denies after an ask; any: a plain allow needs no human, an ask beats a deny', async () => {
    const p = runPolicy({
      mcp_run_js: { mode: 'all', policies: [{ url: ask }, { url: deny }] },
      fetch: { mode: 'any', policies: [{ url: ask }, { url: allow }] },
      websocket: { mode: 'any', policies: [{ url: deny }, { url: ask }] },
    });
    assert.deepEqual(await p.decide('mcp_run_js', { code: 'y' }, { canAsk: true }), { allow: false, reason: 'no', input: { code: 'y' } });
    assert.deepEqual(await p.decide('fetch', { code: 'y' }, { canAsk: true }), { allow: true, input: { code: 'y' } });
    assert.deepEqual(await p.decide('websocket', { code: 'y' }, { canAsk: true }), { allow: true, ask: 'Run y?', input: { code: 'y' } });
  });

  test('ask with allow, an empty ask, and ask from a post hook are hook errors', async () => {
    const both = hook('ask-both.js', 'export default () => ({ allow: true, ask: "?" })');
    const empty = hook('ask-empty.js', 'export default () => ({ ask: "" })');
    const p = runPolicy({ mcp_run_js: { policies: [{ url: both }] }, fetch: { policies: [{ url: empty }] }, websocket: { post: [{ url: ask }] } });
    await assert.rejects(p.decide('mcp_run_js', {}, { canAsk: true }), (e: unknown) => e instanceof PolicyFailedError
      && e.message === `mcp_run_js policy failed: ${both}: returned both allow and ask; a source either decides (allow) or asks a human (ask)`);
    await assert.rejects(p.decide('fetch', {}, { canAsk: true }), (e: unknown) => e instanceof PolicyFailedError
      && e.message === `fetch policy failed: ${empty}: returned ask: ""; expected a non-empty string (the question for the human)`);
    await assert.rejects(p.post('websocket', { code: 'z' }, {}), (e: unknown) => e instanceof PolicyFailedError
      && e.message === `websocket policy failed: ${ask}: returned ask from a post hook; only a decision before the operation can ask a human`);
  });
});
