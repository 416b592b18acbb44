// --policies-json against the real server process: startup errors (exit 2, the key path named),
// and a server with policies (a JavaScript hook and an OPA source) that starts, runs scripts and
// serves their (empty: no operation asks the engine yet) decision logs.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runOnce, startServer } from './server-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'runjs-policies-'));
const file = (name: string, text: string): string => { writeFileSync(join(dir, name), text); return join(dir, name); };

test('policy configuration errors stop startup (exit 2) naming the flag and key path', async () => {
  const rego = pathToFileURL(file('fetch.rego', 'package mcp.fetch\n')).href;
  const broken = pathToFileURL(file('broken.rego', 'package mcp.fetch\n\nallow if {\n  input.method = = "GET"\n}\n')).href;
  const cases: [string[], string][] = [
    [['--policies-json', '{"fetch":{"policies":[{"url":"ftp://opa/"}]}}'], "invalid --policies-json: fetch.policies[0].url: Unsupported policy URL scheme: 'ftp://opa/'. Use http://, https://, or file://"],
    [['--policies-json', JSON.stringify({ fetch: { policies: [{ url: rego }] } })], `invalid --policies-json: fetch.policies[0].rule: the Rego policy at ${join(dir, 'fetch.rego')} does not define data.mcp.fetch.allow`],
    [['--policies-json', JSON.stringify({ fetch: { policies: [{ url: broken }] } })], `invalid --policies-json: fetch.policies[0].url: ${join(dir, 'broken.rego')}:4:18: rego_parse_error: unexpected '='`],
    [['--policies-json', '{"fetch":{"mode":"most"}}'], 'invalid --policies-json: fetch.mode: expected "all" or "any", got "most"'],
    [['--policies-json', '{"fetch":{}}', '--mcp-config', '[]', '--harden-freeze-ops'], '--harden-freeze-ops is not supported yet'],
  ];
  const results = await Promise.all(cases.map(([args]) => runOnce(args)));
  for (const [i, [args, message]] of cases.entries()) {
    assert.equal(results[i]!.code, 2, args.join(' '));
    assert.equal(results[i]!.stderr, `runjs: ${message}\n`);
  }
  const toml = file('c.toml', `[policies.fetch]\npre = [{ url = "file://${dir}/missing.js" }]\n`);
  const fromFile = await runOnce(['--config', toml]);
  assert.equal(fromFile.code, 2);
  assert.equal(fromFile.stderr, `runjs: invalid policies in ${toml}: fetch.pre[0].url: cannot read ${dir}/missing.js: ENOENT: no such file or directory, stat '${dir}/missing.js'\n`);
});

test('a server with policies starts, runs scripts and serves decision logs', async () => {
  const hook = pathToFileURL(file('hook.js', 'export default (input) => input.url !== "https://blocked.example/";')).href;
  const server = await startServer(['--policies-json', JSON.stringify({ fetch: { pre: [{ url: hook, timeout_ms: 1000, capabilities: ['fetch'] }], policies: [{ url: 'http://127.0.0.1:8181' }] } })]);
  try {
    const r = await fetch(`${server.base}/api/exec`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: '6 * 7' }) });
    const { execution_id: id } = await r.json() as { execution_id: string };
    const info = await (await fetch(`${server.base}/api/executions/${id}?wait_ms=10000`)).json() as { status: string; result: string };
    assert.deepEqual([info.status, info.result], ['completed', '42']);
    const decisions = await fetch(`${server.base}/api/executions/${id}/decisions`);
    assert.equal(decisions.status, 200);
    assert.deepEqual(await decisions.json(), { execution_id: id, status: 'completed', decisions: [], dropped: 0, egress: {} });
    assert.equal((await fetch(`${server.base}/api/executions/nope/decisions`)).status, 404);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
