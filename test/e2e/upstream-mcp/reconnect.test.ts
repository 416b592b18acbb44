// Upstream connections that die and come back, against real upstream servers: a stdio child that
// is killed (the next call reconnects, a new process answers), a Streamable HTTP server that stops
// (calls fail with the reference's texts) and starts again, a server unreachable at startup
// (startup goes on, calls fail clearly, the background retry connects later), and a long upstream
// call that does not stall another run.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamHub, upstreamOpRoutes } from '../../../supervisor/upstream-mcp/index.ts';
import { RunjsError } from '../../../shared/errors.ts';
import { OpRouter } from '../../../supervisor/pool/op-router.ts';
import { PoolRunner } from '../../helpers/pool-runner.ts';
import { cancelledSlowCalls, startHttpUpstream, startSseUpstream, UPSTREAM_SCRIPT } from '../../fixtures/upstream-mcp/upstream-server.ts';

const lines: string[] = [];
const log = { info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l) };
// Fast retries; a generous connect timeout, since a stdio upstream is a node process whose start
// can take seconds on a loaded machine.
const fast = { retryMinMs: 50, retryMaxMs: 200, connectTimeoutMs: 20_000 };
const text = (r: { content: unknown }): string => (r.content as { text: string }[])[0]?.text ?? '';

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('stdio: a killed upstream process is replaced; the next call reaches the new one', async () => {
  const hub = new UpstreamHub([{ name: 'local', transport: 'stdio', command: process.execPath, args: [UPSTREAM_SCRIPT], env: {} }], { version: 't', log, timings: fast });
  after(() => hub.close());
  await hub.start();
  const first = Number(text(await hub.callTool('local', 'pid', undefined)));
  const v1 = hub.catalog().version;
  process.kill(first, 'SIGKILL');
  // Whichever comes first — the background reconnect after the close, or the call's own — a new process answers.
  const second = Number(text(await hub.callTool('local', 'pid', undefined)));
  assert.notEqual(second, first);
  assert.ok(second > 0);
  assert.ok(hub.catalog().version > v1, 'the catalogue changed with the reconnect');
  assert.ok(lines.some((l) => l.includes("upstream MCP server 'local' disconnected")), lines.join('\n'));
});

test('Streamable HTTP: calls fail while the server is down (clear texts) and work again once it is back', async () => {
  const http = await startHttpUpstream('h');
  const hub = new UpstreamHub([{ name: 'web', transport: 'http', url: http.url }], { version: 't', log, timings: fast });
  after(async () => { await hub.close(); await http.close().catch(() => {}); });
  await hub.start();
  assert.equal(text(await hub.callTool('web', 'echo', { text: 'before' })), 'h: before');
  await http.close();
  await assert.rejects(hub.callTool('web', 'echo', { text: 'down' }), (e: unknown) => {
    assert.ok(RunjsError.is(e, 'MCP_CALL_FAILED', 'MCP_SERVER_UNAVAILABLE'), String(e));
    assert.match(e.message, /^(mcp\.callTool web\.echo failed: .*reconnecting failed: |MCP server 'web' is not connected \()/);
    return true;
  });
  await assert.rejects(hub.callTool('web', 'echo', { text: 'down' }), /MCP server 'web' is not connected \(.*\); runjs keeps reconnecting in the background, try again later/);
  assert.equal(hub.catalog().servers[0]?.connected, false);
  assert.equal(hub.catalog().servers[0]?.tools.length, 7, 'the last known tools are kept');
  await http.restart();
  await until('the background reconnect', () => hub.catalog().servers[0]?.connected === true);
  assert.equal(text(await hub.callTool('web', 'echo', { text: 'after' })), 'h: after');
});

test('a server unreachable at startup: start() goes on, calls fail clearly, the background retry connects later', async () => {
  const http = await startHttpUpstream('late');
  await http.close();
  const hub = new UpstreamHub([{ name: 'late', transport: 'http', url: http.url }, { name: 'other', transport: 'stdio', command: process.execPath, args: [UPSTREAM_SCRIPT, 'o'], env: {} }], { version: 't', log, timings: fast });
  after(async () => { await hub.close(); await http.close().catch(() => {}); });
  await hub.start();
  assert.deepEqual(hub.catalog().servers.map((s) => [s.name, s.connected, s.tools.length]), [['late', false, 0], ['other', true, 7]]);
  assert.ok(lines.some((l) => l.startsWith("upstream MCP server 'late' is unreachable: ")), lines.join('\n'));
  await assert.rejects(hub.callTool('late', 'echo', { text: 'x' }), /^RunjsError: MCP server 'late' is not connected/);
  await assert.rejects(hub.callTool('nope', 'echo', {}), { message: `MCP server 'nope' not found. Available: ["late", "other"]` });
  await http.restart();
  await until('the background retry', () => hub.catalog().servers[0]?.connected === true);
  assert.equal(text(await hub.callTool('late', 'echo', { text: 'x' })), 'late: x');
});

test('a long upstream call does not stall another run: two workers, one waits upstream, the other finishes meanwhile', async () => {
  const http = await startHttpUpstream('p');
  const hub = new UpstreamHub([{ name: 'web', transport: 'http', url: http.url }], { version: 't', log, timings: fast });
  await hub.start();
  const runner = new PoolRunner(2, 10, 200, new OpRouter([upstreamOpRoutes(hub)], () => {}), { mcpCatalog: () => hub.catalogJson(), warmEngines: ['v8'] });
  after(async () => { await runner.close(); await hub.close(); await http.close(); });
  await runner.pool.ready();
  // No clock: the slow call outlasts any plausible wait (60 s); the quick run must complete while
  // it is still pending, and the slow run is then cancelled.
  let slowSettled = false;
  const slow = runner.start(`(await mcp.callTool('web', 'slow', { ms: 60000 })).content[0].text`, { timeoutMs: 120_000 });
  void slow.result.then(() => { slowSettled = true; });
  const quick = await runner.run(`(await mcp.callTool('web', 'echo', { text: 'quick' })).content[0].text`);
  assert.deepEqual(quick.outcome, { status: 'completed', result: '"p: quick"' });
  assert.equal(slowSettled, false, 'the quick run completed while the slow upstream call was still pending');
  slow.handle.cancel();
  assert.equal((await slow.result).outcome.status, 'cancelled');
});

test('a run that ends (here: times out) cancels its upstream call: the upstream gets notifications/cancelled', async () => {
  const sse = await startSseUpstream('c');
  const hub = new UpstreamHub([{ name: 'legacy', transport: 'sse', url: sse.url }], { version: 't', log, timings: fast });
  await hub.start();
  const runner = new PoolRunner(1, 10, 200, new OpRouter([upstreamOpRoutes(hub)], () => {}), { mcpCatalog: () => hub.catalogJson(), warmEngines: ['v8'] });
  after(async () => { await runner.close(); await hub.close(); await sse.close(); });
  await runner.pool.ready();
  const before = cancelledSlowCalls();
  const res = await runner.run(`await mcp.callTool('legacy', 'slow', { ms: 20000 })`, { timeoutMs: 1000 });
  assert.equal(res.outcome.status, 'timed_out');
  await until('the cancellation to reach the upstream', () => cancelledSlowCalls() === before + 1);
  // The connection is fine afterwards: no reconnect was made for the cancelled call.
  assert.equal(text(await hub.callTool('legacy', 'echo', { text: 'still here' })), 'c: still here');
  assert.equal(hub.catalog().version, 2);
});
