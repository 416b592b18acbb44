// --fetch-header / --fetch-header-config against the real server process: startup errors (exit 2,
// the reference's texts), and a server with a static rule whose value reaches the upstream server
// but never the script or the decision log.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runOnce, startServer } from './server-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'runjs-fetch-headers-'));

test('header-injection configuration errors stop startup (exit 2) with the reference texts', async () => {
  const oauth = (extra: string): string => `host=a.example,header=Authorization,${extra}`;
  const cases: [string[], string][] = [
    [['--fetch-header', 'header=X,value=abcdef'], "--fetch-header missing 'host'"],
    [['--fetch-header', oauth('value=abcdef,token_url=https://idp.example/t')], "--fetch-header cannot mix static 'value' with dynamic oauth keys"],
    [['--fetch-header', oauth('token_url=https://idp.example/t,client_secret=s')], "--fetch-header must provide either 'value' for a static rule or the full dynamic oauth key set: token_url, client_id, client_secret"],
    [['--fetch-header', oauth('value=abcdef,flavour=x')], "Unknown key 'flavour' in --fetch-header. Expected: host, methods, header, value, override, token_url, client_id, client_secret, scope, refresh_buffer_secs"],
    [['--fetch-header-config', JSON.stringify([{ host: 'a.example', headers: { 'X-Key': 'one', 'x-KEY': 'two' } }])], "invalid --fetch-header-config: [0].headers: duplicate header names 'X-Key' and 'x-KEY' (names are case-insensitive)"],
    [['--fetch-header-config', JSON.stringify([{ host: 'a.example', headers: { 'X-Key': '' } }])], "invalid --fetch-header-config: [0].headers: the value of header 'X-Key' must not be empty"],
  ];
  const results = await Promise.all(cases.map(([args]) => runOnce(args)));
  for (const [i, [args, message]] of cases.entries()) {
    assert.equal(results[i]!.code, 2, args.join(' '));
    assert.equal(results[i]!.stderr, `runjs: ${message}\n`);
  }
  const toml = join(dir, 'c.toml');
  writeFileSync(toml, '[[fetch_headers]]\nhost = "a.example"\noverride = true\n[fetch_headers.auth]\ntype = "oauth_client_credentials"\nheader = "A"\ntoken_url = "https://idp.example/t"\nclient_id = "c"\nclient_secret = "s"\n');
  const fromFile = await runOnce(['--config', toml]);
  assert.equal(fromFile.code, 2);
  assert.equal(fromFile.stderr, `runjs: invalid fetch_headers in ${toml}: [0].override: applies to static rules only (an OAuth header is only filled when the script did not set it)\n`);
});

test('a server with a static rule: the upstream receives the credential, the script and the decision log do not', async () => {
  const received: IncomingHttpHeaders[] = [];
  const upstream = createServer((req, res) => { received.push(req.headers); res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'); });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as AddressInfo).port;
  const server = await startServer(['--fetch-default', 'allow', '--fetch-header', 'host=127.0.0.1,header=X-Api-Key,value=e2e-static-secret']);
  try {
    const code = `const req = new Request('http://127.0.0.1:${port}/x'); const r = await fetch(req); console.log(await r.text(), JSON.stringify([...req.headers]));`;
    const r = await fetch(`${server.base}/api/exec`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    const { execution_id: id } = await r.json() as { execution_id: string };
    const info = await (await fetch(`${server.base}/api/executions/${id}?wait_ms=20000`)).json() as { status: string };
    assert.equal(info.status, 'completed');
    const output = await (await fetch(`${server.base}/api/executions/${id}/output`)).text();
    assert.match(output, /ok \[\]/);
    assert.equal(received[0]?.['x-api-key'], 'e2e-static-secret');
    const decisions = await (await fetch(`${server.base}/api/executions/${id}/decisions`)).text();
    assert.match(decisions, /"x-api-key":"\[redacted\]"/);
    assert.doesNotMatch(decisions + output, /e2e-static-secret/);
  } finally {
    upstream.closeAllConnections();
    upstream.close();
    assert.equal(await server.stop(), 0);
  }
});
