// The host side of fetch called as the guest calls it (worker/ops/fetch/fetch-ops.ts), against a
// real server on 127.0.0.1: `fetch.request` starts an exchange and answers its head with a small
// body in one op; exchange ids are the guest's and must be fresh positive integers; a streamed
// body must go through fetch.open.
import { TimerQueue } from '../../../../worker/runtime/timer-queue.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetchOps } from '../../../../worker/ops/fetch/fetch-ops.ts';
import { HeaderInjector } from '../../../../worker/network/header-injection.ts';
import { RunResources } from '../../../../worker/runtime/run-resources.ts';
import { PolicyEngine } from '../../../../worker/policy/policy-engine.ts';
import { OpError, WithBytes, type OpContext, type OpDefinition } from '../../../../worker/ops/op-types.ts';
import { TEST_WORKER_SETTINGS } from '../../../helpers/worker-settings.ts';

let server: Server;
let base = '';
before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { body += c; });
    req.on('end', () => { res.writeHead(200, { 'content-type': 'text/plain', 'x-method': req.method ?? '' }).end(`hello ${body}`); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

const settings = { ...TEST_WORKER_SETTINGS, network: { fetchDefault: 'allow' as const, caCerts: [] } };
const ops = createFetchOps(settings, new HeaderInjector([], { timeoutMs: 5_000 }));

function context(resources: RunResources): OpContext {
  return {
    runId: 'r', limits: { heapBytes: 8 << 20, timeoutMs: 10_000 },
    supervisor: { request: () => Promise.reject(new Error('no supervisor')) },
    resources, policy: new PolicyEngine({}).forRun(), mcpCatalog: undefined, timers: new TimerQueue(),
    writeOutput: () => {}, outputLineCap: () => 0, overflowOutput: () => {}, settle: () => {}, cancelOp: () => {}, refOp: () => {}, runEvent: () => new Promise(() => {}),
  };
}

function call(name: string, args: unknown, ctx: OpContext, bytes?: Uint8Array): unknown {
  const def = ops[name] as OpDefinition;
  return def.kind === 'sync' ? def.run(args, bytes, ctx) : def.run(args, bytes, ctx, new AbortController().signal);
}

test('fetch.request: the head and a small body in one answer, the exchange over', async () => {
  const resources = new RunResources();
  try {
    const ctx = context(resources);
    const answer = await call('fetch.request', { id: 1, url: `${base}/a`, method: 'POST', headers: [['content-type', 'text/plain']], redirect: 'follow', body: 'bytes' }, ctx, new TextEncoder().encode('body'));
    assert.ok(answer instanceof WithBytes);
    const { headers, ...head } = answer.value as { headers: [string, string][] };
    assert.deepEqual(head, { status: 200, statusText: 'OK', url: `${base}/a`, redirected: false, done: true });
    assert.equal(new Map(headers).get('x-method'), 'POST');
    assert.equal(new TextDecoder().decode(answer.bytes), 'hello body');
    // The exchange ended with its body: reading it fails as for any ended one.
    await assert.rejects(call('fetch.read', { id: 1 }, ctx) as Promise<unknown>, (e: unknown) => e instanceof OpError && e.code === 'ERR_RUNJS_FETCH_LOST');
  } finally {
    resources.release();
  }
});

test('exchange ids: a malformed or taken id is refused; a streamed body needs fetch.open', async () => {
  const resources = new RunResources();
  try {
    const ctx = context(resources);
    const request = (id: unknown, body = 'stream'): Record<string, unknown> => ({ id, url: `${base}/s`, method: 'POST', headers: [], redirect: 'follow', body });
    call('fetch.open', request(7), ctx); // open until its body ends
    for (const id of [7, 0, -1, 1.5, '8', undefined]) {
      assert.throws(() => call('fetch.open', request(id), ctx), (e: unknown) => e instanceof OpError && e.message === 'fetch.open: malformed or duplicate exchange id');
    }
    await assert.rejects(call('fetch.request', request(7, 'none'), ctx) as Promise<unknown>, (e: unknown) => e instanceof OpError && e.message === 'fetch.open: malformed or duplicate exchange id');
    await assert.rejects(call('fetch.request', request(9), ctx) as Promise<unknown>, (e: unknown) => e instanceof OpError && e.message === 'fetch.request: a streamed body needs fetch.open');
    await call('fetch.write', { id: 7 }, ctx, new TextEncoder().encode('streamed'));
    call('fetch.end', { id: 7 }, ctx);
    const answer = await call('fetch.response', { id: 7 }, ctx);
    assert.ok(answer instanceof WithBytes);
    assert.equal(new TextDecoder().decode(answer.bytes), 'hello streamed');
  } finally {
    resources.release();
  }
});
