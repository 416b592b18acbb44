// Rego sources in the policy engine: files written to a temp dir, parsed by the server's config
// code, evaluated in-process. Only `true` allows; undefined denies with a reason; conflicts and an
// exhausted budget abort the operation (ERR_POLICY_FAILED); print() lines reach the decision log.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { parsePolicyConfig } from '../../../../supervisor/config/policy-config.ts';
import { PolicyEngine, type RunPolicy } from '../../../../worker/policy/policy-engine.ts';
import { PolicyFailedError } from '../../../../worker/policy/policy-errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'runjs-rego-'));
function rego(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return pathToFileURL(file).href;
}

const engines: PolicyEngine[] = [];
function runPolicy(config: unknown): RunPolicy {
  const engine = new PolicyEngine(parsePolicyConfig(config));
  engines.push(engine);
  return engine.forRun();
}
after(() => { for (const e of engines) e.dispose(); });

const FETCH = `package mcp.fetch

default allow := false

allowed_hosts := {"api.example.com", "cdn.example.com"}

allow if {
  input.url_parsed.host in allowed_hosts
  input.method in {"GET", "HEAD"}
  print("allowed", input.method, input.url_parsed.host)
}
`;

const fetchInput = (host: string, method = 'GET') => ({ operation: 'fetch', url: `https://${host}/x`, method, headers: {}, url_parsed: { scheme: 'https', host, port: null, path: '/x', query: '' } });

test('the rule decides: true allows, anything else denies; print lines are logged', async () => {
  const p = runPolicy({ fetch: { policies: [{ url: rego('fetch.rego', FETCH) }] } });
  assert.equal((await p.decide('fetch', fetchInput('api.example.com'))).allow, true);
  const denied = await p.decide('fetch', fetchInput('evil.example.com'));
  assert.deepEqual([denied.allow, denied.reason], [false, 'not allowed']);
  const steps = p.log().entries.map((e) => e.steps[0]);
  assert.deepEqual(steps[0]?.prints, ['allowed GET api.example.com']);
  assert.equal(steps[1]?.prints, undefined);
});

test('an undefined rule denies with a reason; a configured rule; mcp_tools defaults to data.mcp.tools.allow', async () => {
  const url = rego('partial.rego', 'package acme\nallow if input.ok == true\nmaybe if input.ok == true\n');
  const tools = rego('tools.rego', 'package mcp.tools\nallow if input.tool == "search"\n');
  const p = runPolicy({ fetch: { policies: [{ url, rule: 'data.acme.maybe' }] }, mcp_tools: { policies: [{ url: tools }] } });
  const d = await p.decide('fetch', { ok: false });
  assert.deepEqual([d.allow, d.reason], [false, 'data.acme.maybe is undefined']);
  assert.equal((await p.decide('fetch', { ok: true })).allow, true);
  assert.equal((await p.decide('mcp_tools', { tool: 'search' })).allow, true);
  assert.equal((await p.decide('mcp_tools', { tool: 'shell' })).allow, false);
  const other = runPolicy({ fetch: { policies: [{ url: rego('number.rego', 'package mcp.fetch\nallow := 1\n') }] } });
  assert.equal((await other.decide('fetch', {})).reason, 'data.mcp.fetch.allow is 1, not true');
});

test('a directory of modules across packages; post hooks see {phase, input, output}', async () => {
  const d = join(dir, 'bundle');
  mkdirSync(d);
  writeFileSync(join(d, 'lib.rego'), 'package lib\nsmall(body) if count(body) < 10\n');
  writeFileSync(join(d, 'main.rego'), 'package mcp.fetch\nimport data.lib\nallow if { input.phase == "post"; lib.small(input.output.body) }\n');
  const p = runPolicy({ fetch: { post: [{ url: pathToFileURL(d).href }] } });
  assert.equal((await p.post('fetch', { body: 'short' }, {})).allow, true);
  assert.equal((await p.post('fetch', { body: 'far too long a body' }, {})).allow, false);
});

test('conflicts and an exhausted budget are errors that abort, not denials', async () => {
  const p = runPolicy({
    fetch: { policies: [{ url: rego('conflict.rego', 'package mcp.fetch\nallow := true if input.a\nallow := false if input.b\n') }] },
    websocket: { policies: [{ url: rego('slow.rego', 'package mcp.websocket\nallow if count([x | some x in numbers.range(1, 100000000)]) > 0\n'), timeout_ms: 50 }] },
  });
  await assert.rejects(p.decide('fetch', { a: true, b: true }), (e: unknown) => e instanceof PolicyFailedError
    && /^fetch policy failed: file:\/\/.*conflict\.rego: .*conflict\.rego:3:1: eval_conflict_error: rule data\.mcp\.fetch\.allow produced conflicting values$/.test(e.message));
  assert.equal((await p.decide('fetch', { a: true })).allow, true);
  const t0 = performance.now();
  await assert.rejects(p.decide('websocket', {}), /^Error: websocket policy failed: .*eval_budget_error: evaluation exceeded (50 ms|1000000 steps)$|websocket policy failed: .*eval_budget_error/);
  assert.ok(performance.now() - t0 < 2000);
  assert.deepEqual(p.log().entries.map((e) => e.verdict), ['error', 'allow', 'error']);
});
