// The policy engine in real worker processes and the decision log end to end: no operation calls
// the engine yet (fetch comes next), so the workers here are real ones whose `artifacts.put` op is
// replaced by a probe (test/fixtures/workers/policy-probe-worker.ts) that asks ctx.policy for a
// decision. Everything else is the product: the pool (with its bounds), the execution service,
// SQLite, the REST router, an OPA-compatible server and JavaScript hooks on disk.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parsePolicyConfig } from '../../../supervisor/config/policy-config.ts';
import type { DecisionEntry } from '../../../shared/decision-log.ts';
import { call, startHarness, type Harness } from '../rest/rest-harness.ts';

const PROBE_WORKER = fileURLToPath(new URL('../../fixtures/workers/policy-probe-worker.ts', import.meta.url));

let opa: Server;
let opaBase: string;
let h: Harness;
const dir = mkdtempSync(join(tmpdir(), 'runjs-policy-e2e-'));
const hookUrl = (name: string, code: string): string => {
  writeFileSync(join(dir, name), code);
  return pathToFileURL(join(dir, name)).href;
};

before(async () => {
  opa = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const input = (JSON.parse(body) as { input: { url?: string } }).input;
      res.writeHead(req.url === '/v1/data/mcp/fetch' ? 200 : 500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { allow: (input.url ?? '').startsWith('https://api.example.com/'), reason: `host of ${input.url} is not on the allow-list` } }));
    });
  });
  await new Promise<void>((r) => opa.listen(0, '127.0.0.1', r));
  opaBase = `http://127.0.0.1:${(opa.address() as AddressInfo).port}`;
  const policies = parsePolicyConfig({
    fetch: {
      pre: [{ url: hookUrl('https-only.js', 'export default (input) => ({ input: { ...input, url: input.url.replace(/^http:/, "https:") } });') }],
      policies: [{ url: opaBase }],
      post: [{ url: hookUrl('redact.js', 'export default (output) => ({ output: { ...output, body: output.body.replace(/\\d{4}-\\d{4}/g, "####-####") } });') }],
    },
    modules: { pre: [{ url: hookUrl('throws.js', 'export default () => { throw new Error("hook exploded"); }') }] },
    subprocess: { pre: [{ url: hookUrl('slow.js', 'export default () => new Promise(() => {});'), timeout_ms: 150 }] },
  });
  h = await startHarness({}, {}, { size: 1, workerEntry: PROBE_WORKER, policies });
});

after(async () => {
  await h.shutdown();
  opa.closeAllConnections();
  opa.close();
});

async function runToEnd(code: string): Promise<{ id: string; info: Record<string, unknown> }> {
  const r = await call(h.base, 'POST', '/api/exec', { body: JSON.stringify({ code }), headers: { 'content-type': 'application/json' } });
  const id = (r.body as { execution_id: string }).execution_id;
  const info = await call(h.base, 'GET', `/api/executions/${id}?wait_ms=20000`);
  return { id, info: info.body as Record<string, unknown> };
}

const probe = (category: string, doc: unknown): string => `await artifact(${JSON.stringify(category)}, 'application/x-policy-probe', ${JSON.stringify(JSON.stringify(doc))})`;
const attempt = (category: string, doc: unknown): string =>
  `await (async () => { try { return ${probe(category, doc)}; } catch (e) { return { name: e.name, message: e.message, code: e.code }; } })()`;

test('a run\'s decisions: allowed and rewritten, denied with a catchable error, post-redacted; logged and redacted', async () => {
  const code = `
    const allowed = ${probe('fetch', { input: { operation: 'fetch', url: 'http://api.example.com/v1?api_key=k-987654', headers: { authorization: 'Bearer abc-secret', 'x-injected': 'injected-value-42' } }, output: { status: 200, body: 'card 1234-5678' }, secret: 'injected-value-42' })};
    const denied = ${attempt('fetch', { input: { operation: 'fetch', url: 'https://evil.example/' } })};
    ({ allowed, denied });`;
  const { id, info } = await runToEnd(code);
  assert.equal(info['status'], 'completed', String(info['error']));
  const result = JSON.parse(String(info['result'])) as { allowed: { input: { url: string }; output: { body: string } }; denied: Record<string, string> };
  assert.equal(result.allowed.input.url, 'https://api.example.com/v1?api_key=k-987654');
  assert.equal(result.allowed.output.body, 'card ####-####');
  assert.deepEqual(result.denied, { name: 'Error', message: 'fetch denied by policy: host of https://evil.example/ is not on the allow-list', code: 'ERR_POLICY_DENIED' });

  const r = await call(h.base, 'GET', `/api/executions/${id}/decisions`);
  assert.equal(r.status, 200);
  const body = r.body as { execution_id: string; status: string; decisions: DecisionEntry[]; dropped: number };
  assert.equal(body.execution_id, id);
  assert.equal(body.status, 'completed');
  assert.equal(body.dropped, 0);
  assert.deepEqual(body.decisions.map((d) => [d.seq, d.category, d.phase, d.verdict, d.steps.map((s) => `${s.stage}:${s.verdict}${s.rewrote ? '*' : ''}`).join(' ')]), [
    [1, 'fetch', 'decide', 'allow', 'pre:abstain* policy:allow'],
    [2, 'fetch', 'post', 'allow', 'post:abstain*'],
    [3, 'fetch', 'decide', 'deny', 'pre:abstain* policy:deny'],
  ]);
  const first = body.decisions[0]!;
  assert.deepEqual(first.input, {
    operation: 'fetch', url: 'http://api.example.com/v1?api_key=[redacted]',
    headers: { authorization: '[redacted]', 'x-injected': '[redacted]' },
  });
  assert.equal(first.steps[1]?.source, opaBase);
  assert.equal(body.decisions[2]?.reason, 'host of https://evil.example/ is not on the allow-list');
  assert.ok(!JSON.stringify(body).includes('abc-secret') && !JSON.stringify(body).includes('injected-value-42') && !JSON.stringify(body).includes('k-987654'));
});

test('a failing hook aborts the operation with an error (not a deny), and is logged as such', async () => {
  const { id, info } = await runToEnd(`[${attempt('modules', { input: { specifier: 'npm:left-pad' } })}, ${attempt('subprocess', { input: { command: 'ls' } })}]`);
  const [thrown, slow] = JSON.parse(String(info['result'])) as Record<string, string>[];
  assert.match(thrown?.['message'] ?? '', /^modules policy failed: file:\/\/.*throws\.js: threw: hook exploded$/);
  assert.equal(thrown?.['code'], 'ERR_POLICY_FAILED');
  assert.match(slow?.['message'] ?? '', /^subprocess policy failed: file:\/\/.*slow\.js: timed out after 150 ms$/);
  const { decisions } = (await call(h.base, 'GET', `/api/executions/${id}/decisions`)).body as { decisions: DecisionEntry[] };
  assert.deepEqual(decisions.map((d) => [d.category, d.verdict, d.steps[0]?.verdict]), [['modules', 'error', 'error'], ['subprocess', 'error', 'error']]);
});

test('an unconfigured category and a run without decisions', async () => {
  const { id } = await runToEnd(probe('websocket', { input: { url: 'wss://x/' } }));
  const { decisions } = (await call(h.base, 'GET', `/api/executions/${id}/decisions`)).body as { decisions: DecisionEntry[] };
  assert.deepEqual(decisions.map((d) => [d.category, d.configured, d.verdict]), [['websocket', false, 'allow']]);
  const plain = await runToEnd('1 + 1');
  assert.deepEqual((await call(h.base, 'GET', `/api/executions/${plain.id}/decisions`)).body, { execution_id: plain.id, status: 'completed', decisions: [], dropped: 0, egress: {} });
});

test('unknown executions are 404', async () => {
  const r = await call(h.base, 'GET', '/api/executions/nope/decisions');
  assert.equal(r.status, 404);
  assert.deepEqual(r.body, { error: "Execution 'nope' not found" });
});
