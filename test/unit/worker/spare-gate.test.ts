// V8's spare realm waits while the running realm has host ops in flight (host-ops-gate.ts), and is
// still booted and preloaded: the run after a fetch run gets a realm with web and fetch loaded. An
// op the run leaves unanswered (a cancelled run) does not hold the spare back. The engine's wait
// cap is raised here, so the state the test sees is the gate's, not a timer's. The held run gets a
// realm of another heap limit (booted for it, no spare taken); the spare is then taken and refilled
// while its fetch is in flight, so the refill meets the gate at its first step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { V8Engine } from '../../../worker/engines/v8/v8-engine.ts';
import { HostOpsGate } from '../../../worker/engines/v8/host-ops-gate.ts';
import { readPartSource } from '../../../worker/ops/platform/platform-ops.ts';
import { RunLoop } from '../../../worker/runtime/execute-run.ts';
import { createOps } from '../../../worker/ops/capabilities.ts';
import type { GuestRealm, HostCall } from '../../../worker/engine.ts';
import type { Outcome } from '../../../shared/protocol.ts';
import { TEST_WORKER_SETTINGS } from '../../helpers/worker-settings.ts';

const OPS = createOps({ ...TEST_WORKER_SETTINGS, network: { fetchDefault: 'allow', caCerts: [] } });
const engine = new V8Engine({ partSource: readPartSource, spareWaitMaxMs: 600_000 });
let current: HostCall | undefined;
const trampoline: HostCall = (op, args, bytes) => current!(op, args, bytes);

/** Requests to /held wait here until the test answers them. */
const held: ServerResponse[] = [];
let server: Server;
let base = '';
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/held') held.push(res);
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('now');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

type PreloadedRealm = GuestRealm & { readonly preloaded: readonly string[] };

/** The limit the engine keeps its spare for; other limits boot a realm for the caller. */
const SPARE_MB = 8;

async function start(code: string, memoryLimitMb = SPARE_MB): Promise<{ loop: RunLoop; realm: PreloadedRealm; outcome: Promise<Outcome> }> {
  const loop = new RunLoop({ runId: 'r', code, timeoutMs: 30_000 }, OPS, new Map(), { output: () => {} });
  const realm = await engine.createRealm({ memoryLimitMb, hostCall: trampoline }) as PreloadedRealm;
  current = loop.hostCall;
  const outcome = loop.run(realm).finally(() => realm.dispose());
  return { loop, realm, outcome };
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; !ok(); i++) {
    if (i > 3000) throw new Error(`never: ${what}`);
    await sleep(5);
  }
}

test('HostOpsGate: quiet while no op is in flight; a waiter goes on when the last op is answered', async () => {
  const gate = new HostOpsGate(600_000);
  await gate.quiet();
  gate.opened();
  gate.opened();
  let through = false;
  const waiting = gate.quiet().then(() => { through = true; });
  assert.equal(gate.waiting, 1);
  gate.settled(1);
  await sleep(0);
  assert.deepEqual({ through, waiting: gate.waiting }, { through: false, waiting: 1 });
  gate.settled(5); // more than are open: none is left, not fewer than none
  await waiting;
  assert.deepEqual({ through, waiting: gate.waiting }, { through: true, waiting: 0 });
  await gate.quiet();
});

test('HostOpsGate: a waiter goes on after the wait cap though ops are still in flight', async () => {
  const gate = new HostOpsGate(1);
  gate.opened();
  await gate.quiet();
  assert.equal(gate.waiting, 0);
});

test('the spare waits while a fetch is in flight, then is preloaded for the next run', async () => {
  // A run that used fetch: the realms booted after it load web and fetch.
  const first = await start(`await new Response('ok').text()`);
  assert.deepEqual(await first.outcome, { status: 'completed', result: '"ok"' });

  const run = await start(`await (await fetch('${base}/held')).text()`, 16);
  await until('the request reached the server', () => held.length === 1);
  const taken = await engine.createRealm({ memoryLimitMb: SPARE_MB, hostCall: trampoline }); // the refill starts now
  await until('the spare waits at the gate', () => engine.spareWaiting);
  taken.dispose();
  held.shift()!.writeHead(200, { 'content-type': 'text/plain' }).end('late');
  assert.deepEqual(await run.outcome, { status: 'completed', result: '"late"' });
  assert.equal(engine.spareWaiting, false);

  const next = await start(`typeof fetch + ' ' + (await (await fetch('${base}/now')).text())`);
  assert.deepEqual(await next.outcome, { status: 'completed', result: '"function now"' });
  assert.deepEqual(next.realm.preloaded, ['web', 'fetch']);
});

test('a run stopped with its fetch unanswered does not hold the spare back', async () => {
  const run = await start(`await (await fetch('${base}/held')).text()`, 16);
  await until('the request reached the server', () => held.length === 1);
  const taken = await engine.createRealm({ memoryLimitMb: SPARE_MB, hostCall: trampoline });
  await until('the spare waits at the gate', () => engine.spareWaiting);
  taken.dispose();
  run.loop.stop('cancel');
  assert.equal((await run.outcome).status, 'cancelled');
  await until('the spare goes on', () => !engine.spareWaiting);
  held.shift()!.destroy();

  const next = await start(`(await (await fetch('${base}/now')).text()).length`);
  assert.deepEqual(await next.outcome, { status: 'completed', result: '3' });
  assert.deepEqual(next.realm.preloaded, ['web', 'fetch']);
});

test('realms taken back to back, before the first has loaded its parts, both come preloaded and run', async () => {
  // The spare booted after a run that used fetch loads web and fetch; the spare taken while it is
  // still loading is refilled at once, and that one loads its parts after it.
  assert.deepEqual(await (await start(`await new Response('ok').text()`)).outcome, { status: 'completed', result: '"ok"' });
  assert.deepEqual(await (await start('1 + 1')).outcome, { status: 'completed', result: '2' });
  const first = engine.createRealm({ memoryLimitMb: SPARE_MB, hostCall: trampoline }) as Promise<PreloadedRealm>;
  const second = engine.createRealm({ memoryLimitMb: SPARE_MB, hostCall: trampoline }) as Promise<PreloadedRealm>;
  const realms = await Promise.all([first, second]);
  try {
    assert.deepEqual(realms.map((r) => r.preloaded), [['web', 'fetch'], ['web', 'fetch']]);
    for (const [i, realm] of realms.entries()) {
      const loop = new RunLoop({ runId: `r${i}`, code: `typeof fetch + ' ' + (await (await fetch('${base}/now')).text())`, timeoutMs: 30_000 }, OPS, new Map(), { output: () => {} });
      current = loop.hostCall;
      assert.deepEqual(await loop.run(realm), { status: 'completed', result: '"function now"' });
    }
  } finally {
    for (const realm of realms) realm.dispose();
  }
});
